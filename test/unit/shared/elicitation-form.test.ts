/**
 * The form drawn from an agent's restricted JSON Schema, and the check of what the user entered: every property
 * type the spec allows, its constraints, required fields and defaults, and untrusted values of the wrong shape.
 */
import * as assert from 'node:assert/strict';
import { formModelFrom, RADIO_MAX_OPTIONS, type FormModel } from '../../../src/shared/elicitation-form';
import { checkForm, initialValues, MAX_TEXT_LENGTH } from '../../../src/shared/elicitation-validate';

const single = (property: unknown, required = false): FormModel =>
  formModelFrom({ properties: { f: property }, required: required ? ['f'] : [] });
const errorOf = (model: FormModel, value: unknown): string | undefined => {
  const checked = checkForm(model, { f: value });
  return checked.ok ? undefined : checked.errors['f'];
};
const valueOf = (model: FormModel, value: unknown): unknown => {
  const checked = checkForm(model, { f: value });
  assert.ok(checked.ok, `expected ${JSON.stringify(value)} to pass`);
  return checked.content['f'];
};

describe('elicitation form model', () => {
  it('reads every property type with its title, description, required flag and constraints', () => {
    const model = formModelFrom({
      title: 'Deploy',
      description: 'Where and how',
      properties: {
        name: { type: 'string', title: 'Name', description: 'Yours', minLength: 2, maxLength: 10, pattern: '^[A-Z]' },
        when: { type: 'string', format: 'date' },
        size: { type: 'number', minimum: 0.5, maximum: 9.5, default: 1.5 },
        count: { type: 'integer', minimum: 1, maximum: 3, default: 2 },
        ok: { type: 'boolean', default: true },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 2, default: ['a', 'zzz'] },
      },
      required: ['name'],
    });
    assert.equal(model.title, 'Deploy');
    assert.equal(model.description, 'Where and how');
    assert.deepEqual(model.fields, [
      { name: 'name', label: 'Name', description: 'Yours', required: true, kind: 'text', minLength: 2, maxLength: 10, pattern: '^[A-Z]' },
      { name: 'when', label: 'when', required: false, kind: 'text', format: 'date' },
      { name: 'size', label: 'size', required: false, kind: 'number', integer: false, minimum: 0.5, maximum: 9.5, default: 1.5 },
      { name: 'count', label: 'count', required: false, kind: 'number', integer: true, minimum: 1, maximum: 3, default: 2 },
      { name: 'ok', label: 'ok', required: false, kind: 'boolean', default: true },
      {
        name: 'tags',
        label: 'tags',
        required: false,
        kind: 'multi',
        options: [
          { value: 'a', label: 'a' },
          { value: 'b', label: 'b' },
        ],
        minItems: 1,
        maxItems: 2,
        default: ['a'],
      },
    ]);
    assert.deepEqual(initialValues(model), { size: 1.5, count: 2, ok: true, tags: ['a'] });
  });

  it('draws a few options as radio buttons and many as a drop-down, titled oneOf by its titles', () => {
    const few = single({
      type: 'string',
      oneOf: [
        { const: 'eu', title: 'Europe' },
        { const: 'us', title: 'America' },
      ],
      default: 'us',
    });
    assert.deepEqual(few.fields[0], {
      name: 'f',
      label: 'f',
      required: false,
      kind: 'choice',
      control: 'radio',
      options: [
        { value: 'eu', label: 'Europe' },
        { value: 'us', label: 'America' },
      ],
      default: 'us',
    });
    const values = Array.from({ length: RADIO_MAX_OPTIONS + 1 }, (_, i) => `v${i}`);
    const many = single({ type: 'string', enum: values, default: 'not-an-option' });
    assert.ok(many.fields[0]?.kind === 'choice');
    assert.equal(many.fields[0].control, 'select');
    assert.equal(many.fields[0].default, undefined, 'a default that is not an option is dropped');
  });

  it('reads titled multi-select items (anyOf) and leaves out what it cannot draw', () => {
    const model = formModelFrom({
      properties: {
        titled: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } },
        nested: { type: 'object', properties: {} },
        noItems: { type: 'array' },
        broken: 'string',
        badPattern: { type: 'string', pattern: '(' },
      },
    });
    assert.deepEqual(
      model.fields.map((field) => field.name),
      ['titled', 'badPattern'],
    );
    assert.ok(model.fields[0]?.kind === 'multi');
    assert.deepEqual(model.fields[0].options, [{ value: 'x', label: 'Ex' }]);
    assert.ok(model.fields[1]?.kind === 'text' && model.fields[1].pattern === undefined, 'a pattern that does not compile is ignored');
    assert.deepEqual(model.unsupported, ['nested', 'noItems', 'broken']);
  });
});

describe('elicitation form check', () => {
  it('required fields must be given; empty text or an empty list counts as not given', () => {
    const model = single({ type: 'string' }, true);
    assert.equal(errorOf(model, undefined), 'Required.');
    assert.equal(errorOf(model, '   '), 'Required.');
    assert.equal(errorOf(single({ type: 'array', items: { type: 'string', enum: ['a'] } }, true), []), 'Required.');
    assert.deepEqual(checkForm(single({ type: 'string' }), {}), { ok: true, content: {} }, 'an optional field left empty is left out');
  });

  it('text: length in characters, pattern, and each format', () => {
    const model = single({ type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-z]+$' });
    assert.equal(errorOf(model, 'a'), 'At least 2 characters.');
    assert.equal(errorOf(model, 'abcd'), 'At most 3 characters.');
    assert.equal(errorOf(model, 'AB'), 'Does not match the expected pattern ^[a-z]+$.');
    assert.equal(valueOf(single({ type: 'string', maxLength: 2 }), '😀😀'), '😀😀', 'two characters, four UTF-16 units');
    assert.equal(errorOf(single({ type: 'string' }), 'x'.repeat(MAX_TEXT_LENGTH + 1)), `At most ${MAX_TEXT_LENGTH} characters.`);
    assert.equal(errorOf(single({ type: 'string', format: 'email' }), 'ada@'), 'Not an email address.');
    assert.equal(valueOf(single({ type: 'string', format: 'email' }), 'ada@example.org'), 'ada@example.org');
    assert.equal(errorOf(single({ type: 'string', format: 'uri' }), 'example.org'), 'Not a URI (scheme:rest).');
    assert.equal(valueOf(single({ type: 'string', format: 'uri' }), 'https://example.org/x'), 'https://example.org/x');
    assert.equal(errorOf(single({ type: 'string', format: 'date' }), '2026-13-40'), 'Not a date (YYYY-MM-DD).');
    assert.equal(valueOf(single({ type: 'string', format: 'date' }), '2026-11-23'), '2026-11-23');
    assert.equal(
      errorOf(single({ type: 'string', format: 'date-time' }), '2026-11-23 10:00'),
      'Not a date and time (YYYY-MM-DDThh:mm:ssZ).',
    );
    assert.equal(valueOf(single({ type: 'string', format: 'date-time' }), '2026-11-23T10:00:00Z'), '2026-11-23T10:00:00Z');
    assert.equal(errorOf(single({ type: 'string' }), 42), 'Expected text.');
  });

  it('numbers: parsed from what was typed, bounds, and whole numbers for integers', () => {
    const number = single({ type: 'number', minimum: -1, maximum: 2.5 });
    assert.equal(valueOf(number, '2.5'), 2.5);
    assert.equal(valueOf(number, -1), -1);
    assert.equal(errorOf(number, '3'), 'At most 2.5.');
    assert.equal(errorOf(number, '-2'), 'At least -1.');
    assert.equal(errorOf(number, '1,5'), 'Expected a number.');
    assert.equal(errorOf(number, '0x10'), 'Expected a number.');
    assert.equal(errorOf(single({ type: 'integer' }), '1.5'), 'Expected a whole number.');
    assert.equal(valueOf(single({ type: 'integer' }), '7'), 7);
  });

  it('single and multiple choice accept only the offered values; multi-select counts distinct choices', () => {
    const choice = single({ type: 'string', enum: ['a', 'b'] });
    assert.equal(valueOf(choice, 'b'), 'b');
    assert.equal(errorOf(choice, 'c'), 'Choose one of the options.');
    const multi = single({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 2, maxItems: 2 });
    assert.deepEqual(valueOf(multi, ['a', 'c']), ['a', 'c']);
    assert.equal(errorOf(multi, ['a', 'a']), 'Choose at least 2.');
    assert.equal(errorOf(multi, ['a', 'b', 'c']), 'Choose at most 2.');
    assert.equal(errorOf(multi, ['a', 'z']), 'Choose only from the options.');
    assert.equal(errorOf(multi, 'a'), 'Expected a list of options.');
  });

  it('booleans must be booleans; values for fields the form does not have are dropped', () => {
    const model = single({ type: 'boolean' });
    assert.equal(valueOf(model, false), false);
    assert.equal(errorOf(model, 'true'), 'Expected yes or no.');
    assert.deepEqual(checkForm(model, { f: true, injected: 'x' }), { ok: true, content: { f: true } });
  });
});
