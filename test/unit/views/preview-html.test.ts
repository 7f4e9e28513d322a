/**
 * The conversation put in the chat page's HTML after Reload Window (src/views/preview-html.ts): the newest entries,
 * oldest first, within a bound; read-only; and nothing of what an agent wrote reaches the page as markup.
 */
import * as assert from 'node:assert/strict';
import type { Entry, MessageEntry, ToolCallEntry } from '../../../src/shared/model';
import { previewOnScreen, type TranscriptPreview } from '../../../src/shared/saved-preview';
import { chatHtml } from '../../../src/views/chat-html';
import { PREVIEW_HTML_MAX_CHARS, previewHtml } from '../../../src/views/preview-html';

function message(role: MessageEntry['role'], index: number, text: string): MessageEntry {
  return { kind: 'message', key: `msg:${role}:${index}`, role, content: [{ type: 'text', text }] };
}

function toolCall(title: string, key = 'tool:t1'): ToolCallEntry {
  return { kind: 'tool_call', key, toolCallId: 't1', title, toolKind: 'execute', status: 'completed', content: [], locations: [] };
}

function preview(entries: readonly Entry[]): TranscriptPreview {
  return { conversationId: 'c1', entries, terminals: {} };
}

/** The keys of the entries in `html`, in document order. */
function keysIn(html: string): string[] {
  return [...html.matchAll(/data-entry-key="([^"]*)"/g)].map((match) => match[1] ?? '');
}

describe('the saved preview in the chat page HTML', () => {
  it('shows user text as text, agent text as markdown, tool calls and thoughts as their line, oldest first', () => {
    const html = previewHtml(
      preview([
        message('user', 1, 'Fix *the* build'),
        message('thought', 2, 'hidden reasoning'),
        toolCall('Run npm test'),
        message('agent', 3, 'Done: **2** tests fixed.\n\n- one\n- two'),
        { kind: 'turn_end', key: 'end:t1', turnId: 't1', outcome: { type: 'stopped', stopReason: 'end_turn' } },
      ]),
    );
    assert.deepEqual(keysIn(html), ['msg:user:1', 'msg:thought:2', 'tool:t1', 'msg:agent:3'], 'the turn end is left to the chat');
    assert.match(html, /<div class="plain-text">Fix \*the\* build<\/div>/, 'the user message as typed');
    assert.match(html, /<strong>2<\/strong> tests fixed\.<\/p>\s*<ul>\s*<li>one<\/li>/, 'the agent message rendered');
    assert.match(html, /<span class="tool-title">Run npm test<\/span>/);
    assert.ok(!html.includes('hidden reasoning'), 'a thought shows collapsed, as the chat shows it');
    assert.match(html, /^<div class="transcript boot-preview" role="log" aria-label="Conversation" aria-busy="true" inert>/, 'read-only');
  });

  it('keeps what an agent or a tampered saved state wrote as text: no element, attribute or link of theirs', () => {
    const attack =
      '<img src=x onerror="alert(1)"><script>alert(2)</script></div></main><meta http-equiv="refresh" content="0;url=https://evil.example">';
    const html = previewHtml(
      preview([
        message('user', 1, attack),
        {
          ...message('agent', 2, `${attack}\n\n[run](command:workbench.action.terminal.sendSequence) [site](javascript:alert(3))`),
          key: '"><script>alert(4)</script>',
        },
        toolCall(attack, 'tool:"onmouseover="alert(5)'),
      ]),
    );
    for (const raw of ['<img', '<script', '<meta', '</main>', 'href="command:', 'href="javascript:', '"><script', '"onmouseover']) {
      assert.ok(!html.includes(raw), `${raw} stays text: ${html}`);
    }
    assert.ok(html.includes('&lt;script&gt;alert(2)&lt;/script&gt;'), 'shown, escaped');
    // Balanced: the page around it (its prompt, its scripts) is parsed as it was written.
    const opened = (html.match(/<div\b/g) ?? []).length;
    const closed = (html.match(/<\/div>/g) ?? []).length;
    assert.equal(opened, closed, 'every div it opens it closes');
  });

  it('keeps the newest entries within its bound, and is empty when nothing in it reads without the chat', () => {
    const entries = Array.from({ length: 400 }, (_, index) => message('agent', index, `paragraph ${index} `.repeat(40)));
    const html = previewHtml(preview(entries));
    const keys = keysIn(html);
    assert.ok(html.length <= PREVIEW_HTML_MAX_CHARS + 200, `bounded: ${html.length}`);
    assert.ok(keys.length > 10 && keys.length < 400, `some of them: ${keys.length}`);
    assert.equal(keys.at(-1), 'msg:agent:399', 'the newest is last');
    assert.deepEqual(
      keys,
      entries.slice(-keys.length).map((entry) => entry.key),
      'a run of the newest, in order',
    );
    assert.equal(
      previewHtml(preview([{ kind: 'turn_end', key: 'end:t1', turnId: 't1', outcome: { type: 'stopped', stopReason: 'end_turn' } }])),
      '',
    );
    assert.equal(previewHtml(preview([message('agent', 1, '   ')])), '');
  });

  it('goes where the transcript goes, before the prompt', () => {
    const page = chatHtml({
      cspSource: 'vscode-resource:',
      nonce: 'abc',
      promptGuard: '',
      scriptUri: 'a.js',
      chatScriptUri: 'b.js',
      styleUri: 'c.css',
      codiconsUri: 'd.css',
      previewHtml: previewHtml(preview([message('agent', 1, 'hello')])),
    });
    assert.match(page, /<div class="transcript-area"><div class="transcript boot-preview"[^]*hello[^]*<\/div><div class="composer">/);
  });
});

describe('which saved preview the page and the host draw', () => {
  const saved = (ui: unknown, current = 'c1'): unknown => ({
    current,
    conversations: [{ id: 'c1', ui }],
    preview: preview([message('agent', 1, 'hi')]),
  });

  it('the one of the conversation on screen, followed at its newest entries', () => {
    assert.equal(previewOnScreen(saved({ scroll: { atBottom: true } }))?.conversationId, 'c1');
    assert.equal(previewOnScreen(saved(undefined))?.conversationId, 'c1', 'a position not saved is at the bottom');
    assert.equal(previewOnScreen(saved({ scroll: { atBottom: false, anchorKey: 'msg:agent:1' } })), undefined, 'scrolled up');
    assert.equal(previewOnScreen(saved({}, 'c2')), undefined, 'another conversation is on screen');
    assert.equal(previewOnScreen(undefined), undefined);
    assert.equal(
      previewOnScreen({ current: 'c1', preview: { conversationId: 'c1', entries: [{ kind: 'message' }] } }),
      undefined,
      'garbage',
    );
  });
});
