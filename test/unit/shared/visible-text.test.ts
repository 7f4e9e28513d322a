import * as assert from 'node:assert/strict';
import { visibleProse, visibleText } from '../../../src/shared/visible-text';

describe('visibleText: what an agent names is shown without hidden or reordering characters', () => {
  const flagged: [string, string][] = [
    ['\u202A', 'left-to-right embedding'],
    ['\u202B', 'right-to-left embedding'],
    ['\u202C', 'pop directional formatting'],
    ['\u202D', 'left-to-right override'],
    ['\u202E', 'right-to-left override'],
    ['\u2066', 'left-to-right isolate'],
    ['\u2067', 'right-to-left isolate'],
    ['\u2068', 'first strong isolate'],
    ['\u2069', 'pop directional isolate'],
    ['\u200E', 'left-to-right mark'],
    ['\u200F', 'right-to-left mark'],
    ['\u061C', 'arabic letter mark'],
    ['\u0000', 'NUL'],
    ['\u0007', 'BEL'],
    ['\u001B', 'ESC'],
    ['\u007F', 'DEL'],
    ['\u0085', 'C1 next line'],
    ['\u009B', 'C1 control sequence introducer'],
    ['\u00AD', 'soft hyphen'],
    ['\u200B', 'zero-width space'],
    ['\u200C', 'zero-width non-joiner'],
    ['\u200D', 'zero-width joiner between letters'],
    ['\u2060', 'word joiner'],
    ['\u2062', 'invisible times'],
    ['\u2028', 'line separator'],
    ['\u2029', 'paragraph separator'],
    ['\uFEFF', 'byte order mark'],
    ['\u3164', 'hangul filler'],
    ['\u180E', 'mongolian vowel separator'],
    ['\u{E0041}', 'tag latin capital A'],
    ['\u034F', 'combining grapheme joiner'],
  ];
  for (const [character, name] of flagged) {
    const code = (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    it(`shows ${name} as <U+${code}>, in a label and in multi-line text`, () => {
      assert.equal(visibleText(`a${character}b`), `a<U+${code}>b`);
      assert.equal(visibleText(`a${character}b`, 'multiline'), `a<U+${code}>b`);
    });
  }

  it('the right-to-left override no longer makes invoice…exe read as a .jpg', () => {
    assert.equal(visibleText('invoice\u202Egpj.exe'), 'invoice<U+202E>gpj.exe');
  });

  it('a label is one line: tab, newline and carriage return are flagged; multi-line text keeps them', () => {
    assert.equal(visibleText('a\tb\nc\r\nd'), 'a<U+0009>b<U+000A>c<U+000D><U+000A>d');
    assert.equal(visibleText('a\tb\nc\r\nd', 'multiline'), 'a\tb\nc\r\nd');
    assert.equal(visibleText('over\rwrite', 'multiline'), 'over<U+000D>write');
  });

  const untouched: [string, string][] = [
    ['src/components/Button.tsx', 'a plain path'],
    ['npm run build -- --watch', 'a command'],
    ['שלום עולם', 'Hebrew'],
    ['مرحبا بالعالم', 'Arabic'],
    ['日本語のファイル.md', 'Japanese'],
    ['café naïve', 'accented Latin'],
    ['👨\u200D👩\u200D👧 family', 'an emoji ZWJ sequence'],
    ['❤\uFE0F\u200D🔥', 'an emoji ZWJ sequence with a variation selector'],
    ['\u00A0non-breaking space', 'a no-break space (visible as space)'],
  ];
  for (const [text, name] of untouched) {
    it(`leaves ${name} as it is`, () => assert.equal(visibleText(text), text));
  }

  it('returns the very same string when there is nothing to flag (labels are checked on every render)', () => {
    const label = 'Read file.ts';
    assert.equal(visibleText(label), label);
  });
});

describe('visibleProse: message bodies keep right-to-left text but lose the power to reorder', () => {
  it('keeps Hebrew and Arabic, isolates and marks as written', () => {
    const prose = 'The file \u2067שלום.txt\u2069 is \u200Fready\u200E; مرحبا';
    assert.equal(visibleProse(prose), prose);
  });

  it('shows embeddings and overrides as <U+XXXX>', () => {
    assert.equal(
      visibleProse('run invoice\u202Egpj.exe and \u202Ax\u202C \u202B\u202D'),
      'run invoice<U+202E>gpj.exe and <U+202A>x<U+202C> <U+202B><U+202D>',
    );
  });
});
