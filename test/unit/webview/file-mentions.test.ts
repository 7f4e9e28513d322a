import * as assert from 'node:assert/strict';
import { acceptMention, mentionQuery } from '../../../webview/composer/file-mentions';

describe('webview: @ file mentions', () => {
  it('finds the @word ending at the caret', () => {
    assert.deepEqual(mentionQuery('@', 1), { start: 0, query: '' });
    assert.deepEqual(mentionQuery('explain @src/pa', 15), { start: 8, query: 'src/pa' });
    assert.deepEqual(mentionQuery('one\n@par', 8), { start: 4, query: 'par' });
    assert.deepEqual(mentionQuery('explain @src/pa now', 11), { start: 8, query: 'sr' }, 'what is before the caret counts');
    assert.equal(mentionQuery('mail me@example.com', 19), undefined, 'not inside a word');
    assert.equal(mentionQuery('@src/a.ts and', 13), undefined, 'past the mention');
  });

  it('replaces the whole @word with the picked path and one space', () => {
    const text = 'explain @par now';
    assert.deepEqual(acceptMention(text, { start: 8, query: 'par' }, 'src/parser.ts'), { text: 'explain @src/parser.ts now', caret: 23 });
    assert.deepEqual(acceptMention('@pa', { start: 0, query: 'pa' }, 'src/parser.ts'), { text: '@src/parser.ts ', caret: 15 });
    assert.deepEqual(
      acceptMention('x @parXYZ', { start: 2, query: 'par' }, 'a.ts'),
      { text: 'x @a.ts ', caret: 8 },
      'the rest of the word under the caret goes too',
    );
  });
});
