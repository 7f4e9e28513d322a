import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { renderMarkdown } from '../../../src/shared/markdown';
import { MarkdownStream, UNBOUNDED, type BlockSink, type WorkBudget } from '../../../webview/markdown/markdown-stream';
import { FRAME_CHARS, FrameBudget } from '../../../webview/transcript/frame-budget';

const escapeHtml = new MarkdownIt().utils.escapeHtml;

type Drawn = { html: string } | { shell: string; code: string; tail: string };

/** Draws into strings the way the DOM sink draws into elements: code goes in as text, so it is escaped. */
class StringSink implements BlockSink {
  readonly blocks: Drawn[] = [];
  readonly calls = { setHtml: 0, htmlChars: 0, appendedChars: 0 };

  setHtml(index: number, html: string): void {
    if (!this.behind) this.laidOut++;
    this.drawnBehind[index] = this.behind;
    this.newestShown = false;
    this.at(index);
    this.blocks[index] = { html };
    this.calls.setHtml++;
    this.calls.htmlChars += html.length;
  }

  setCodeShell(index: number, shell: string): void {
    this.at(index);
    this.blocks[index] = { shell, code: '', tail: '' };
  }

  appendCode(index: number, text: string): void {
    this.code(index).code += text;
    this.calls.appendedChars += text.length;
  }

  setCodeTail(index: number, text: string): void {
    this.code(index).tail = text;
  }

  truncate(count: number): void {
    this.blocks.length = Math.min(this.blocks.length, count);
  }

  /** Blocks are drawn where they wait unlaid-out (BlockSink.setBehind). */
  behind = false;
  /** setHtml calls made while not behind: text laid out in the frame. */
  laidOut = 0;
  /** Whether each block was last drawn behind. */
  readonly drawnBehind: boolean[] = [];

  setBehind(behind: boolean): void {
    this.behind = behind;
  }

  caughtUp(): void {
    this.behind = false;
    this.caughtUpCalls++;
  }

  caughtUpCalls = 0;
  /** The newest block drawn was drawn behind, and showNewest has laid it out since. */
  newestShown = false;

  showNewest(): void {
    this.newestShown = this.drawnBehind.at(-1) === true;
  }

  html(): string {
    return this.blocks
      .map((block) =>
        'html' in block ? block.html : block.shell.replace('</code></pre>', `${escapeHtml(block.code + block.tail)}</code></pre>`),
      )
      .join('');
  }

  private at(index: number): void {
    assert.ok(index <= this.blocks.length, `block ${index} drawn before block ${this.blocks.length}`);
  }

  private code(index: number): { shell: string; code: string; tail: string } {
    const block = this.blocks[index];
    assert.ok(block && 'shell' in block, `block ${index} is not a code block`);
    return block;
  }
}

/** Runs out after `blocks` blocks (the stream asks before each block). */
function budgetOf(blocks: number): WorkBudget {
  let asked = 0;
  return { exhausted: () => asked++ >= blocks, now: () => 0, spend: () => undefined };
}

/** Reference definitions last: some tests leave them out. */
const DOCUMENTS: Record<string, string> = {
  'paragraphs and headings':
    '# Title\n\nFirst paragraph\nstill first.\n\nSecond with **bold** and `code`.\nSetext\n---\n\n## Next\nText right after.\n',
  'tight and loose lists': '- one\n- two\n  continued\n\n- three\n\n1. a\n1. b\n\n   more b\n2) c\n\n* star\n+ plus\n\nAfter the lists.',
  'fences of every kind':
    'Intro:\n```ts info here\nconst a = 1;\n\n\nconst b = "<b>" & 2;\n```\nRight after.\n\n~~~\ntilde `x`\n~~~~\n\n````md\n```\ninner\n```\n````\n\n```a`b\nnot a fence\n\n   ```\n   indented fence\n   ```\n',
  'a fence closed on the last line with no newline': 'Code:\n\n```js\nlet x = 1;\n```',
  'an unclosed fence at the end': 'Look:\n\n```py\nprint(1)\n\nprint(2)\n  ``\n',
  'a fence inside a list item': '- item\n\n  ```\n  code\n\n  more\n  ```\n- next\n```\ntop level\n```\n- after',
  'quotes, tables and indented code':
    '> quoted\n> more\nlazy\n\n| a | b |\n|---|---|\n| 1 | 2 |\n```\nfence after table\n```\n\n    indented code\n\n    still code\nend',
  'multi-byte characters': 'Émoji 🚀🚀 and 字节\n\n- 🎉 item\n- ünïcode\n\n```\n🚀 in code 字\n```\n\n末尾 🚀',
  'CRLF line ends': 'Line one\r\n\r\n```ts\r\nconst a = 1;\r\n```\r\n\r\n- a\r\n- b\r\n',
  'raw HTML and unsafe links':
    'Click [me](javascript:alert(1)) or [safe](https://example.com).\n\n<script>alert(1)</script>\n\n```html\n<img src=x onerror=alert(1)>\n```\n',
  'reference definitions': 'See [the docs][d] and [more].\n\n```\ncode\n```\n\n[d]: https://example.com\n[more]: https://example.org',
};

/**
 * Hostile text in code a stream draws line by line (Trojan Source: an override and isolates make code read as other
 * code) and invisible characters: a full render shows each as `<U+XXXX>`, so every split must too.
 */
const HOSTILE: Record<string, string> = {
  'Trojan Source in the code block a message ends with':
    'Check this:\n\n```js\nif (isAdmin) { /* \u202E } \u2066if (true) \u2069{ */\n  grant();\n}\n```',
  'Trojan Source in a code block with text after it':
    '```js\nlet ok = true; // \u202Ehello\u202C\naccess\u2067Level = "user\u2069 ";\n```\n\nDone \u202E.\n',
  'every kind of bidi control in an unclosed code block':
    '```\n\u202A\u202B\u202C\u202D\u202E|\u2066\u2067\u2068\u2069|\u200E\u200F\u061C|end',
  'invisible characters in code: zero-width, BOM, tag characters, fillers, separators, C1':
    '```py\nname\u200B = 1\nif \uFEFFuser == "admin\u{E0041}\u{E0064}":\n  x\u3164 = \u2060\u00AD\u034F\u2028\u0085\u0007\n```\n',
  'joiners in code: an emoji family (kept) and lone joiners (shown)':
    '```\nfamily = "👨\u200D👩\u200D👧" # kept\n\u200Dstart, end\u200D\nmid\u200Ddle 🚀\u200D\n\u200D🚀\n```\nafter',
};

function streamed(
  text: string,
  ends: readonly number[],
  budget: () => WorkBudget = () => UNBOUNDED,
): { sink: StringSink; stream: MarkdownStream } {
  const sink = new StringSink();
  const stream = new MarkdownStream(sink);
  for (const end of ends) {
    stream.setText(text.slice(0, end));
    let rounds = 0;
    while (!stream.draw(budget())) assert.ok(++rounds < 10_000, 'drawing never finishes');
  }
  return { sink, stream };
}

describe('streaming markdown', () => {
  const documents = [
    ...Object.entries(DOCUMENTS).map(([name, text]) => ({ text, title: (what: string) => `${what}: ${name}` })),
    ...Object.entries(HOSTILE).map(([name, text]) => ({ text, title: (what: string) => `attack: ${what}: ${name}` })),
  ];
  for (const { text, title } of documents) {
    it(title('draws the same HTML as a full render after any one split point'), () => {
      for (let split = 0; split <= text.length; split++) {
        const { sink } = streamed(text, [split, text.length]);
        assert.equal(sink.html(), renderMarkdown(text), `split at ${split}: ${JSON.stringify(text.slice(0, split))}`);
      }
    });

    it(
      title('draws the same HTML as a full render at every step of a stream, chunk sizes 1 to 13, told or not that it grows, and what'),
      () => {
        const modes = ['untold', 'told', 'appended'] as const;
        for (const [size, mode] of [1, 2, 3, 5, 13].flatMap((size) => modes.map((mode) => [size, mode] as const))) {
          const sink = new StringSink();
          const stream = new MarkdownStream(sink);
          let last = 0;
          for (let end = 0; end < text.length + size; end += size) {
            const prefix = text.slice(0, Math.min(end, text.length));
            stream.setText(prefix, mode !== 'untold', mode === 'appended' ? text.slice(last, prefix.length) : undefined);
            last = prefix.length;
            assert.ok(stream.draw(UNBOUNDED));
            assert.equal(sink.html(), renderMarkdown(prefix), `${mode}, chunks of ${size}, at ${prefix.length}`);
          }
        }
      },
    );

    it(title('draws the same HTML as a full render when the budget runs out while appended text keeps coming'), () => {
      for (const size of [1, 4, 11]) {
        const sink = new StringSink();
        const stream = new MarkdownStream(sink);
        let last = 0;
        for (let end = size; end < text.length + size; end += size) {
          const length = Math.min(end, text.length);
          stream.setText(text.slice(0, length), true, text.slice(last, length));
          last = length;
          stream.draw(budgetOf(1));
        }
        while (!stream.draw(budgetOf(1))) {
          // more frames
        }
        assert.equal(sink.html(), renderMarkdown(text), `chunks of ${size}`);
      }
    });
  }

  it('attack: streamed code shows an override and isolates as <U+XXXX> while it streams and after text follows it', () => {
    const code = '```js\nif (isAdmin) { /* \u202E } \u2066if (true) \u2069{ */\n```';
    const hidden = /[\u202E\u2066\u2069]/u;
    const sink = new StringSink();
    const stream = new MarkdownStream(sink);
    for (const text of [code.slice(0, 30), code.slice(0, 48), code, `${code}\n\nAnd more text.`]) {
      stream.setText(text);
      assert.ok(stream.draw(UNBOUNDED));
      assert.doesNotMatch(sink.html(), hidden, JSON.stringify(text));
    }
    assert.match(sink.html(), /\{ \/\* &lt;U\+202E&gt; \} &lt;U\+2066&gt;if \(true\) &lt;U\+2069&gt;\{ \*\/\n<\/code>/);
    // The code block was streamed, not rendered whole: the check is that path's own.
    assert.ok(sink.blocks.some((block) => 'shell' in block));
  });

  it('draws a long message that arrives at once over several calls when the budget runs out, ending equal', () => {
    // Without reference definitions, which keep a text whole.
    const text = Object.values(DOCUMENTS).slice(0, -1).join('\n\n').repeat(5);
    const sink = new StringSink();
    const stream = new MarkdownStream(sink);
    stream.setText(text);
    let calls = 1;
    while (!stream.draw(budgetOf(3))) {
      calls++;
      assert.ok(sink.blocks.length <= 3 * calls, `${sink.blocks.length} blocks after ${calls} calls`);
    }
    assert.ok(calls > 10, `${calls} calls`);
    assert.equal(sink.html(), renderMarkdown(text));
  });

  it('keeps drawing in order and equal when the budget runs out while the text keeps growing', () => {
    const text = Object.values(DOCUMENTS).slice(0, 9).join('\n\n').repeat(3);
    const ends: number[] = [];
    for (let end = 7; end < text.length; end += 7) ends.push(end);
    const sink = new StringSink();
    const stream = new MarkdownStream(sink);
    for (const end of ends) {
      stream.setText(text.slice(0, end));
      stream.draw(budgetOf(1));
    }
    stream.setText(text);
    while (!stream.draw(budgetOf(2))) {
      // more frames
    }
    assert.equal(sink.html(), renderMarkdown(text));
  });

  it('streams a 200 KB code block by appending its new lines: earlier lines are never rendered again', () => {
    let text = 'Here is the file:\n\n```ts\n';
    for (let line = 0; text.length < 200_000; line++) text += `export const value${line} = compute(${line}); // "ünïcode" <tag>\n`;
    text += '```\n\nDone.';
    const ends: number[] = [];
    for (let end = 100; end < text.length; end += 100) ends.push(end);
    ends.push(text.length);
    const { sink } = streamed(text, ends);
    assert.equal(sink.html(), renderMarkdown(text));
    // Only the intro, the code block's shell and the closing paragraph went through the markdown renderer.
    assert.ok(sink.calls.htmlChars < 2_000, `${sink.calls.htmlChars} characters of HTML rendered`);
    // Each code line was appended once.
    assert.ok(sink.calls.appendedChars < text.length, `${sink.calls.appendedChars} characters appended`);
    assert.ok(sink.calls.appendedChars > text.length - 200, `${sink.calls.appendedChars} characters appended`);
  });

  it('renders each finished block once while a long message streams', () => {
    const text = Array.from({ length: 200 }, (_, index) => `Paragraph ${index} with some words in it.\n\n`).join('');
    const ends: number[] = [];
    for (let end = 10; end < text.length; end += 10) ends.push(end);
    ends.push(text.length);
    const { sink } = streamed(text, ends);
    assert.equal(sink.html(), renderMarkdown(text));
    // Each of the 200 paragraphs is re-rendered while its own lines arrive (about 4 chunks each), not once per chunk of the message.
    assert.ok(sink.calls.setHtml < 200 * 6, `${sink.calls.setHtml} renders for ${ends.length} chunks`);
  });

  it('draws a flood of text over several frames: a frame lays out about FRAME_CHARS characters however cheap they are to render', () => {
    // The host-under-floods message (test/fixtures/agents/raw-faults.ts): 4 KB paragraphs. Rendering one costs
    // little script but laying it out costs much more (about 2 ms each on a busy 2-core machine, in the workbench's
    // thread when the chat is in code-server): a frame that drew 165 of them held that thread for 300 ms.
    const paragraph = `${'flood words '.repeat(341)}\n\n`.slice(0, 4096);
    const text = paragraph.repeat(100);
    const sink = new StringSink();
    const stream = new MarkdownStream(sink);
    stream.setText(text);
    const perFrame: number[] = [];
    for (let done = false; !done; ) {
      const before = sink.laidOut;
      // A frame with all the time in the world: only the characters laid out can end it.
      done = stream.draw(new FrameBudget(60_000));
      perFrame.push(sink.laidOut - before);
      assert.ok(perFrame.length < 1_000, 'drawing never finishes');
    }
    assert.equal(sink.html(), renderMarkdown(text));
    // What was far behind went where it is laid out only once the stream caught up (then only what is on screen).
    assert.ok(sink.laidOut < sink.calls.setHtml, `all ${sink.calls.setHtml} blocks were laid out as they were drawn`);
    assert.equal(sink.behind, false, 'the stream caught up but its blocks still wait to be laid out');
    const most = Math.ceil(FRAME_CHARS / paragraph.length);
    assert.ok(Math.max(...perFrame) <= most, `blocks drawn per frame: ${perFrame.join(', ')} (at most ${most})`);
  });

  it('far behind, lays out only the text within two frames of its end: what a fast stream scrolled past waits, the end never does', () => {
    const paragraph = `${'flood words '.repeat(341)}\n\n`.slice(0, 4096);
    const text = paragraph.repeat(100);
    const frameChars = 8_000;
    const sink = new StringSink();
    const stream = new MarkdownStream(sink);
    stream.setText(text);
    for (let frames = 0; !stream.draw(new FrameBudget(60_000, frameChars)); frames++) assert.ok(frames < 1_000, 'drawing never finishes');
    assert.equal(sink.html(), renderMarkdown(text));
    const laidOut = sink.drawnBehind.flatMap((behind, index) => (behind ? [] : [index]));
    const firstLaidOut = Math.ceil((text.length - 2 * frameChars) / paragraph.length);
    assert.deepEqual(
      laidOut,
      [...Array(100 - firstLaidOut).keys()].map((index) => firstLaidOut + index),
    );
    assert.equal(sink.behind, false);
  });

  it("while text keeps coming faster than frames lay it out, draws behind what scrolls past, and every frame that reaches the end lays out its last two frames' worth", () => {
    const paragraph = `${'stream words '.repeat(30)}\n\n`;
    const text = paragraph.repeat(2_000);
    const frameChars = 4_000;
    const sink = new StringSink();
    const stream = new MarkdownStream(sink);
    const perFrame = 20_000;
    for (let end = 0, frames = 0; ; frames++) {
      assert.ok(frames < 1_000, 'drawing never finishes');
      const next = Math.min(text.length, end + perFrame);
      stream.setText(text.slice(0, next), true, text.slice(end, next));
      end = next;
      const done = stream.draw(new FrameBudget(60_000, frameChars));
      if (!done) continue;
      // Paragraphs are all one length: block i starts at i * paragraph.length.
      const blocks = Math.ceil(end / paragraph.length);
      for (let index = Math.ceil((end - 2 * frameChars) / paragraph.length); index < blocks; index++) {
        assert.equal(
          sink.drawnBehind[index],
          false,
          `frame ${frames}: block ${index} of ${blocks}, near the end, was drawn where it is not laid out`,
        );
      }
      if (end === text.length) break;
    }
    assert.equal(sink.html(), renderMarkdown(text));
    assert.ok(sink.drawnBehind.filter(Boolean).length > 1_000, 'the text that scrolled past was laid out as it was drawn');
  });

  it("a backlog the host holds (heldChars) counts as text to draw: posts of two frames' worth are drawn behind until the end nears, as if the backlog had come at once", () => {
    // The host posts a fast stream no faster than the chat takes it (src/views/action-poster.ts), so the chat never
    // has more than a post or two to draw; only the backlog the host says it holds tells it how far behind it is.
    const paragraph = `${'flood words '.repeat(341)}\n\n`.slice(0, 4096);
    const text = paragraph.repeat(100);
    const frameChars = 8_000;
    const postChars = 2 * frameChars;
    const sink = new StringSink();
    const stream = new MarkdownStream(sink);
    for (let end = 0, frames = 0; end < text.length; ) {
      const next = Math.min(text.length, end + postChars);
      stream.setText(text.slice(0, next), true, text.slice(end, next));
      end = next;
      const held = text.length - end;
      while (!stream.draw(new FrameBudget(60_000, frameChars), held)) assert.ok(frames++ < 1_000, 'drawing never finishes');
      if (held > 0) assert.equal(sink.caughtUpCalls, 0, `caught up with ${held} characters still held`);
      // What a view that follows the stream looks at is laid out between posts, not space kept for text.
      if (held > 0 && sink.drawnBehind.at(-1)) assert.ok(sink.newestShown, `the end so far (at ${end}) is not shown`);
    }
    assert.equal(sink.html(), renderMarkdown(text));
    const laidOut = sink.drawnBehind.flatMap((behind, index) => (behind ? [] : [index]));
    const firstLaidOut = Math.ceil((text.length - 2 * frameChars) / paragraph.length);
    // Block 0 comes first, before any post told of a backlog big enough: the first post's own text is laid out.
    assert.deepEqual(
      laidOut.filter((index) => index > 0),
      [...Array(100 - firstLaidOut).keys()].map((index) => firstLaidOut + index),
      `laid out as drawn: ${laidOut.length} of 100 blocks`,
    );
    assert.equal(sink.behind, false);
    assert.equal(sink.caughtUpCalls, 1);
  });

  it('starts over when the text is replaced rather than extended', () => {
    const sink = new StringSink();
    const stream = new MarkdownStream(sink);
    stream.setText('first\n\n```\ncode\n');
    stream.draw(UNBOUNDED);
    stream.setText('other\n\n- a\n- b');
    stream.draw(UNBOUNDED);
    assert.equal(sink.html(), renderMarkdown('other\n\n- a\n- b'));
    stream.setText('');
    stream.draw(UNBOUNDED);
    assert.equal(sink.html(), '');
  });
});
