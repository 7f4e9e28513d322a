/**
 * An agent's question: a form drawn from its schema (labelled controls, descriptions, inline errors) with
 * Accept / Decline / Cancel, or a URL shown whole with its host emphasized and an Open button (http(s) only).
 * The form element is kept per request while it waits, so re-rendering the card (the tool call updating) never
 * loses what the user typed. Buttons carry `data-action="elicitation"`; app.ts reads the values and posts.
 */
import type { FormField } from '../../src/shared/elicitation-form';
import { isWebUrl, type ElicitationOutcome, type ElicitationView } from '../../src/shared/elicitation-model';
import { checkForm, initialValues, type ElicitationValue } from '../../src/shared/elicitation-validate';
import type { FormModel } from '../../src/shared/elicitation-form';
import type { Entry } from '../../src/shared/model';
import { h, icon, textButton } from '../dom';
import type { EntryView } from './entry-view';

const waitingForms = new Map<string, HTMLFormElement>();

export class ElicitationEntryView implements EntryView {
  readonly element = h('div', { className: 'entry elicitation-entry' });

  render(entry: Entry): void {
    if (entry.kind !== 'elicitation') return;
    this.element.replaceChildren(elicitationCard(entry.elicitation));
  }
}

export function elicitationCard(view: ElicitationView): HTMLElement {
  const card = h(
    'div',
    { className: 'elicitation', attrs: { role: 'group', 'aria-label': 'Question from the agent' } },
    h('div', { className: 'elicitation-message' }, icon('question'), h('span', { text: view.message })),
  );
  if (view.outcome !== undefined) {
    waitingForms.delete(view.requestId);
    card.append(outcomeLine(view.outcome, view.request.mode));
    if (view.request.mode === 'url' && view.outcome === 'accepted') card.append(urlLine(view.request.url, view.request.host));
    return card;
  }
  if (view.request.mode === 'url') {
    card.append(urlLine(view.request.url, view.request.host), buttons(view.requestId, isWebUrl(view.request.url) ? 'Open' : undefined));
    return card;
  }
  card.append(formFor(view.requestId, view.request.form));
  return card;
}

function outcomeLine(outcome: ElicitationOutcome, mode: 'form' | 'url'): HTMLElement {
  const text: Record<ElicitationOutcome, string> = {
    accepted: mode === 'url' ? 'Opened in the browser; waiting for the agent' : 'Answered',
    declined: 'Declined',
    cancelled: 'Cancelled',
    completed: 'Completed',
  };
  return h('div', { className: 'elicitation-outcome', attrs: { role: 'status' } }, h('span', { text: text[outcome] }));
}

/** The URL whole, so nothing is hidden, with its host set apart: that is who the user would be talking to. */
function urlLine(url: string, host: string): HTMLElement {
  const at = host ? url.indexOf(host) : -1;
  const line = h('div', { className: 'elicitation-url', attrs: { 'aria-label': `Link to ${host || url}` } });
  if (at < 0) line.append(h('span', { text: url }));
  else line.append(h('span', { text: url.slice(0, at) }), h('strong', { text: host }), h('span', { text: url.slice(at + host.length) }));
  return line;
}

function buttons(requestId: string, acceptLabel: string | undefined): HTMLElement {
  const row = h('div', { className: 'elicitation-actions' });
  const button = (label: string, answer: string, secondary: boolean): HTMLElement =>
    textButton(label, { secondary, dataset: { action: 'elicitation', requestId, answer } });
  if (acceptLabel) row.append(button(acceptLabel, 'accept', false));
  row.append(button('Decline', 'decline', true), button('Cancel', 'cancel', true));
  return row;
}

function formFor(requestId: string, model: FormModel): HTMLFormElement {
  const kept = waitingForms.get(requestId);
  if (kept) return kept;
  const form = h('form', { className: 'elicitation-form', attrs: { novalidate: '' } });
  form.dataset.requestId = requestId;
  if (model.title) form.append(h('div', { className: 'elicitation-title', text: model.title }));
  if (model.description) form.append(h('div', { className: 'elicitation-description', text: model.description }));
  const values = initialValues(model);
  model.fields.forEach((field, index) => form.append(fieldRow(requestId, index, field, values[field.name])));
  form.append(buttons(requestId, 'Accept'));
  // Enter in a text box submits like the Accept button.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    form.querySelector<HTMLElement>('[data-answer="accept"]')?.click();
  });
  waitingForms.set(requestId, form);
  return form;
}

function fieldRow(requestId: string, index: number, field: FormField, initial: ElicitationValue | undefined): HTMLElement {
  const id = `elicit-${requestId}-${index}`;
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const described = [field.description ? descriptionId : undefined, errorId].filter(Boolean).join(' ');
  const label = `${field.label}${field.required ? ' (required)' : ''}`;
  const row = h('div', { className: 'elicitation-field' });
  row.dataset.field = field.name;
  row.dataset.kind = field.kind;
  const describe = (control: HTMLElement): void => {
    control.setAttribute('aria-describedby', described);
    if (field.required) control.setAttribute('aria-required', 'true');
  };
  if (field.kind === 'boolean') {
    const box = h('input', { attrs: { type: 'checkbox', id } });
    box.checked = initial === true;
    describe(box);
    row.append(h('label', { attrs: { for: id } }, box, h('span', { text: label })));
  } else if (field.kind === 'choice' && field.control === 'radio') {
    const group = h('fieldset', { attrs: { 'aria-describedby': described } }, h('legend', { text: label }));
    field.options.forEach((option, n) => {
      const radio = h('input', { attrs: { type: 'radio', name: id, id: `${id}-${n}`, value: option.value } });
      radio.checked = initial === option.value;
      group.append(h('label', { attrs: { for: `${id}-${n}` } }, radio, h('span', { text: option.label })));
    });
    row.append(group);
  } else if (field.kind === 'multi') {
    const group = h('fieldset', { attrs: { 'aria-describedby': described } }, h('legend', { text: label }));
    const chosen = Array.isArray(initial) ? initial : [];
    field.options.forEach((option, n) => {
      const box = h('input', { attrs: { type: 'checkbox', id: `${id}-${n}`, value: option.value } });
      box.checked = chosen.includes(option.value);
      group.append(h('label', { attrs: { for: `${id}-${n}` } }, box, h('span', { text: option.label })));
    });
    row.append(group);
  } else if (field.kind === 'choice') {
    const select = h('select', { attrs: { id } }, h('option', { text: '—', attrs: { value: '' } }));
    for (const option of field.options) select.append(h('option', { text: option.label, attrs: { value: option.value } }));
    select.value = typeof initial === 'string' ? initial : '';
    describe(select);
    row.append(h('label', { attrs: { for: id }, text: label }), select);
  } else {
    const input = h('input', { attrs: { id, type: inputType(field) } });
    if (field.kind === 'number') input.inputMode = field.integer ? 'numeric' : 'decimal';
    input.value = initial === undefined ? '' : String(initial);
    describe(input);
    row.append(h('label', { attrs: { for: id }, text: label }), input);
  }
  if (field.description) row.append(h('div', { className: 'elicitation-help', text: field.description, attrs: { id: descriptionId } }));
  row.append(h('div', { className: 'elicitation-error', attrs: { id: errorId, 'aria-live': 'polite' } }));
  return row;
}

function inputType(field: FormField): string {
  if (field.kind !== 'text') return 'text';
  return field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : 'text';
}

/** What the user entered, field by field, as the host expects it (numbers as typed: the host parses them). */
export function formValues(form: HTMLFormElement): Record<string, ElicitationValue> {
  const values: Record<string, ElicitationValue> = {};
  for (const row of form.querySelectorAll<HTMLElement>('.elicitation-field')) {
    const name = row.dataset.field;
    if (name === undefined) continue;
    const inputs = [...row.querySelectorAll<HTMLInputElement>('input')];
    switch (row.dataset.kind) {
      case 'boolean':
        values[name] = inputs[0]?.checked ?? false;
        break;
      case 'multi':
        values[name] = inputs.filter((input) => input.checked).map((input) => input.value);
        break;
      case 'choice': {
        const value = row.querySelector('select')?.value ?? inputs.find((input) => input.checked)?.value ?? '';
        if (value) values[name] = value;
        break;
      }
      default:
        if (inputs[0]?.value) values[name] = inputs[0].value;
    }
  }
  return values;
}

/** Shows the errors next to their fields (and clears the others); true when the form may be sent. */
export function showFormErrors(form: HTMLFormElement, model: FormModel): boolean {
  const checked = checkForm(model, formValues(form));
  const errors = checked.ok ? {} : checked.errors;
  for (const row of form.querySelectorAll<HTMLElement>('.elicitation-field')) {
    const error = errors[row.dataset.field ?? ''];
    const slot = row.querySelector('.elicitation-error');
    if (slot) slot.textContent = error ?? '';
    row
      .querySelectorAll('input, select, fieldset')
      .forEach((control) => (error ? control.setAttribute('aria-invalid', 'true') : control.removeAttribute('aria-invalid')));
  }
  if (!checked.ok) form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  return checked.ok;
}
