import * as assert from 'node:assert/strict';
import { rankFiles, type RankedFile } from '../../../src/shared/file-ranking';

const files: RankedFile[] = [
  'src/parser.ts',
  'src/parser/index.ts',
  'test/parser.test.ts',
  'README.md',
  'src/views/prompt-area.ts',
  'docs/parsing-notes.md',
].map((label) => ({
  label,
  uri: `file:///w/${label}`,
}));
const labels = (ranked: RankedFile[]): string[] => ranked.map((file) => file.label);

describe('views: @ file ranking', () => {
  it('puts file-name prefixes before substrings before path hits before scattered letters', () => {
    assert.deepEqual(labels(rankFiles(files, 'pars', new Set(), 10)), [
      'src/parser.ts',
      'test/parser.test.ts',
      'docs/parsing-notes.md',
      'src/parser/index.ts',
      'src/views/prompt-area.ts',
    ]);
    assert.deepEqual(labels(rankFiles(files, 'prar', new Set(), 10)), ['src/views/prompt-area.ts'], 'letters in order, not adjacent');
    assert.deepEqual(labels(rankFiles(files, 'zzz', new Set(), 10)), []);
  });

  it('matches paths, ignoring case, spaces and backslashes', () => {
    assert.deepEqual(labels(rankFiles(files, 'SRC\\Parser/', new Set(), 10)), ['src/parser/index.ts']);
    assert.deepEqual(labels(rankFiles(files, 'read me', new Set(), 10)), ['README.md']);
  });

  it('lets open editors win ties, and shorter paths win the rest', () => {
    const open = new Set(['file:///w/test/parser.test.ts']);
    assert.deepEqual(labels(rankFiles(files, 'parser', open, 2)), ['test/parser.test.ts', 'src/parser.ts']);
    assert.deepEqual(
      labels(rankFiles(files, '', open, 3)),
      ['test/parser.test.ts', 'README.md', 'src/parser.ts'],
      'an empty query offers open editors first',
    );
  });
});
