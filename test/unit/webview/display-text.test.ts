import * as assert from 'node:assert/strict';
import { DISPLAY_TEXT_LIMIT, plainMessageText, truncateForDisplay } from '../../../webview/transcript/display-text';

describe('plain message text', () => {
  it('shows a user message as typed, line breaks and tabs kept', () => {
    assert.equal(plainMessageText('fix this:\n\tif (a) {}\r\nשלום'), 'fix this:\n\tif (a) {}\r\nשלום');
  });

  it('attack: a user message that grows through later chunks (a session/load replay) shows bidi controls as <U+XXXX> at every step', () => {
    // The bubble is drawn from the first chunk and redrawn from each longer text: every one is shown the same way.
    const chunks = ['Please review ', 'if (isAdmin) { /* \u202E } \u2066if (true) \u2069{ */', ' and \u200Bdelete\uFEFF it'];
    let text = '';
    for (const chunk of chunks) {
      text += chunk;
      assert.doesNotMatch(plainMessageText(text), /[\u202E\u2066\u2069\u200B\uFEFF]/u, JSON.stringify(text));
    }
    assert.equal(
      plainMessageText(text),
      'Please review if (isAdmin) { /* <U+202E> } <U+2066>if (true) <U+2069>{ */ and <U+200B>delete<U+FEFF> it',
    );
  });

  it('cuts a long message before showing it, so the cut is all that is scanned', () => {
    const shown = plainMessageText(`${'a'.repeat(DISPLAY_TEXT_LIMIT)}\u202E`);
    assert.equal(shown, truncateForDisplay(`${'a'.repeat(DISPLAY_TEXT_LIMIT)}\u202E`));
    assert.match(shown, /\n… \(1 more characters\)$/);
  });
});
