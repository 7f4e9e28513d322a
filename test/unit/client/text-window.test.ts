import * as assert from 'node:assert/strict';
import { sliceLines } from '../../../src/client/text-window';

describe('fs/read_text_file line and limit', () => {
  const text = 'one\ntwo\r\nthree\nfour';
  const cases: [number | undefined, number | undefined, string][] = [
    [undefined, undefined, text],
    [1, undefined, text],
    [2, undefined, 'two\r\nthree\nfour'],
    [2, 2, 'two\r\nthree\n'],
    [undefined, 1, 'one\n'],
    [4, 10, 'four'],
    [5, undefined, ''],
    [3, 0, ''],
  ];
  for (const [line, limit, expected] of cases) {
    it(`line ${String(line)} limit ${String(limit)}`, () => assert.equal(sliceLines(text, line, limit), expected));
  }
});
