import * as assert from 'node:assert/strict';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { ContentBlock } from '../../../src/shared/content';
import type { TranscriptState } from '../../../src/shared/model';
import { lastEntry } from '../../../src/shared/pages';
import { initialState, reduce } from '../../../src/shared/reducer';
import { appendedText, knownToExtend, trackTextGrowth } from '../../../src/shared/text-growth';

type TextBlock = Extract<ContentBlock, { type: 'text' }>;

function chunk(text: string): TranscriptAction {
  return { type: 'session_update', update: { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text } } };
}

function messageText(state: TranscriptState): TextBlock {
  const entry = lastEntry(state);
  const block = entry?.kind === 'message' ? entry.content[0] : undefined;
  assert.ok(block?.type === 'text');
  return block;
}

/** The message's text block after each chunk of one stream. */
function streamTexts(...chunks: string[]): TextBlock[] {
  let state = initialState();
  return chunks.map((text) => messageText((state = reduce(state, chunk(text)))));
}

describe('text growth: which message texts are known to extend an earlier one', () => {
  before(() => trackTextGrowth());

  it('knows every text of a streamed message begins with each earlier one', () => {
    const [first, second, third] = streamTexts('Hello', ', wor', 'ld');
    assert.ok(first && second && third);
    assert.equal(third.text, 'Hello, world');
    assert.ok(knownToExtend(first, second));
    assert.ok(knownToExtend(first, third));
    assert.ok(knownToExtend(second, third));
    assert.ok(!knownToExtend(third, first), 'a shorter text does not extend a longer one');
  });

  it('does not claim it for two states reduced from one, nor for a replaced message', () => {
    const base = reduce(reduce(initialState(), chunk('same ')), chunk('start'));
    const left = messageText(reduce(base, chunk(' left')));
    const right = messageText(reduce(base, chunk(' right')));
    assert.ok(!knownToExtend(left, right) && !knownToExtend(right, left));
    const replaced = reduce(base, {
      type: 'session_update',
      update: { sessionUpdate: 'agent_message', messageId: 'm', content: [{ type: 'text', text: 'same start, edited' }] },
    });
    assert.ok(!knownToExtend(messageText(base), messageText(replaced)));
  });
});

describe('text growth: the text appended since a view last read', () => {
  before(() => trackTextGrowth());

  it('gives what a streamed message gained between two of its states, however many chunks that was', () => {
    const texts = streamTexts('Hello', ', wor', 'ld', '! 🚀');
    const [first, last] = [texts[0], texts[texts.length - 1]];
    assert.ok(first && last);
    assert.equal(appendedText(first, last), ', world! 🚀');
    assert.equal(appendedText(last, last), '');
  });

  it('lets go of what a view has read, and then says it does not know rather than guess', () => {
    const [first, second, third] = streamTexts('a', 'b', 'c');
    assert.ok(first && second && third);
    assert.equal(appendedText(second, third), 'c');
    assert.equal(appendedText(first, third), undefined, 'the chunks before the second text were let go');
    assert.equal(appendedText(third, second), undefined, 'a shorter text was not appended to');
  });

  it('keeps a bounded amount for a message no view reads, and the view falls back to reading the text', () => {
    let state = reduce(initialState(), chunk('start'));
    const first = messageText(state);
    const piece = 'x'.repeat(100_000);
    for (let index = 0; index < 25; index++) state = reduce(state, chunk(piece));
    const last = messageText(state);
    assert.equal(appendedText(first, last), undefined, '2.5 MB is more than a line keeps');
    const near = messageText(reduce(state, chunk('!')));
    assert.equal(appendedText(last, near), '!');
  });

  it("keeps one flood's post whole: a view behind by 560 KB takes it without reading the message's text", () => {
    const state = reduce(initialState(), chunk('start'));
    const first = messageText(state);
    const post = `${'flood words '.repeat(341)}\n\n`.slice(0, 4096).repeat(140);
    const last = messageText(reduce(state, chunk(post)));
    assert.equal(appendedText(first, last), post);
  });

  it('knows nothing appended for two states reduced from one', () => {
    const base = reduce(initialState(), chunk('same '));
    const left = messageText(reduce(base, chunk('left')));
    const right = messageText(reduce(base, chunk('right')));
    assert.equal(appendedText(left, right), undefined);
    assert.equal(appendedText(messageText(base), left), 'left');
  });
});
