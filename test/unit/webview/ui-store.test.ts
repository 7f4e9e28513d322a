/** The webview keeps one UI state per conversation, tells the host the draft once typing pauses, and bounds itself. */
import * as assert from 'node:assert/strict';
import { UiStore } from '../../../webview/host/ui-store';
import type { WebviewToHostMessage } from '../../../src/shared/webview-protocol';

function fakeHost(saved: unknown = undefined) {
  const posted: WebviewToHostMessage[] = [];
  const host = {
    saved,
    posted,
    post: (message: WebviewToHostMessage) => void posted.push(message),
    loadUiState: () => host.saved,
    saveUiState: (state: unknown) => void (host.saved = state),
  };
  return host;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webview UI state per conversation', () => {
  it('each conversation keeps its own draft; switching back finds it; the host hears a draft after typing pauses', async () => {
    const host = fakeHost();
    const store = new UiStore(host);
    const a = store.channelFor('a', '');
    a.saveUiState({ draft: 'for a', attachments: [], expandedThoughts: [], expandedRaw: [], scroll: { atBottom: true } });
    const b = store.channelFor('b', 'host draft of b');
    assert.equal((b.loadUiState() as { draft: string }).draft, 'host draft of b');
    const again = new UiStore(host).channelFor('a', '');
    assert.equal((again.loadUiState() as { draft: string }).draft, 'for a', 'an empty host copy defers to the saved one');
    assert.deepEqual(host.posted, [], 'nothing posted before typing pauses');
    await sleep(400);
    assert.deepEqual(host.posted, [{ type: 'draft_changed', conversationId: 'a', text: 'for a' }]);
  });

  it("the host's draft wins over an older saved one (VS Code may have saved the webview's state before the last keys)", () => {
    const host = fakeHost();
    new UiStore(host)
      .channelFor('a', '')
      .saveUiState({ draft: 'old', attachments: [], expandedThoughts: [], expandedRaw: [], scroll: { atBottom: true } });
    const reloaded = new UiStore(host).channelFor('a', 'newer from the host');
    assert.equal((reloaded.loadUiState() as { draft: string }).draft, 'newer from the host');
  });

  it("what was typed into the page's prompt before the chat loaded wins over the host's and the saved draft, and the host hears it", async () => {
    const host = fakeHost();
    new UiStore(host)
      .channelFor('a', '')
      .saveUiState({ draft: 'saved', attachments: [], expandedThoughts: [], expandedRaw: [], scroll: { atBottom: true } });
    await sleep(400);
    host.posted.length = 0;
    const shown = new UiStore(host).channelFor('a', 'from the host', 'typed before the chat loaded');
    assert.equal((shown.loadUiState() as { draft: string }).draft, 'typed before the chat loaded');
    await sleep(400);
    assert.deepEqual(host.posted, [{ type: 'draft_changed', conversationId: 'a', text: 'typed before the chat loaded' }]);
  });

  it('keeps at most 20 conversations, the least recently shown dropped first', () => {
    const host = fakeHost();
    const store = new UiStore(host);
    for (let i = 0; i < 25; i++) store.channelFor(`c${i}`, `draft ${i}`);
    const saved = host.saved as { current: string; conversations: { id: string }[] };
    assert.equal(saved.conversations.length, 20);
    assert.equal(saved.conversations[0]?.id, 'c5');
    assert.equal(saved.current, 'c24');
  });
});

describe('webview drafts when the page goes', () => {
  it('posts a draft changed within the typing pause at once when asked (the view is being hidden)', () => {
    const host = fakeHost();
    const store = new UiStore(host);
    const channel = store.channelFor('c1', 'old text');
    channel.saveUiState({ ...(channel.loadUiState() as object), draft: '' });
    assert.deepEqual(host.posted, [], 'nothing yet: typing may go on');
    store.postDraftsNow();
    assert.deepEqual(host.posted, [{ type: 'draft_changed', conversationId: 'c1', text: '' }]);
    store.postDraftsNow();
    assert.equal(host.posted.length, 1, 'an unchanged draft is not posted again');
  });
});
