import * as assert from 'node:assert/strict';
import { blockTexts, IncrementalBlockSplitter, splitMarkdownBlocks } from '../../../webview/markdown/markdown-blocks';
import { renderMarkdown } from '../../../src/shared/markdown';

describe('markdown block splitting', () => {
  it('splits paragraphs and headings at blank lines, and joining gives the text back', () => {
    const text = '# Title\n\nFirst paragraph\nstill first.\n\nSecond.\n';
    const blocks = splitMarkdownBlocks(text);
    assert.deepEqual(blocks, ['# Title\n\n', 'First paragraph\nstill first.\n\n', 'Second.\n']);
    assert.equal(blocks.join(''), text);
  });

  it('keeps a fenced code block with blank lines in one block', () => {
    const text = 'Intro\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nAfter';
    assert.deepEqual(splitMarkdownBlocks(text), ['Intro\n\n', '```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\n', 'After']);
  });

  it('keeps an unclosed fence (still streaming) as the last block', () => {
    const blocks = splitMarkdownBlocks('Text\n\n```\ncode\n\nmore code');
    assert.equal(blocks.length, 2);
    assert.equal(blocks[1], '```\ncode\n\nmore code');
  });

  it('keeps a loose list together, including indented continuation paragraphs', () => {
    const text = '- one\n\n- two\n\n  more about two\n\n- three\n\nAfter the list\n';
    assert.deepEqual(splitMarkdownBlocks(text), ['- one\n\n- two\n\n  more about two\n\n- three\n\n', 'After the list\n']);
  });

  it('does not split text that has link reference definitions', () => {
    const text = 'See [the docs][d].\n\n[d]: https://example.com';
    assert.deepEqual(splitMarkdownBlocks(text), [text]);
  });

  it('renders the same HTML block by block as all at once for ordinary text', () => {
    const text = '# Plan\n\nDo this:\n\n1. a\n2. b\n\n```js\nx();\n```\n\n> quoted\n\nDone.';
    assert.equal(splitMarkdownBlocks(text).map(renderMarkdown).join(''), renderMarkdown(text));
  });

  it('incremental splitting of growing text matches splitting from scratch at every step', () => {
    const text = 'Intro line.\n\n## Heading\n\n- a\n- b\n\n```py\nprint(1)\n\nprint(2)\n```\n\nClosing paragraph with `code`.\n';
    const splitter = new IncrementalBlockSplitter();
    for (let end = 0; end <= text.length; end += 3) {
      const prefix = text.slice(0, end);
      assert.deepEqual(blockTexts(prefix, splitter.split(prefix).starts), splitMarkdownBlocks(prefix), `at ${end}`);
    }
  });

  it('gives a column-0 fence a block of its own, from its opening line to the first text after it', () => {
    const text = 'Look:\n```ts\nconst a = 1;\n```\nThat was it.\n';
    assert.deepEqual(splitMarkdownBlocks(text), ['Look:\n', '```ts\nconst a = 1;\n```\n', 'That was it.\n']);
    assert.equal(splitMarkdownBlocks(text).map(renderMarkdown).join(''), renderMarkdown(text));
  });

  it('does not take a backtick line with a backtick in its info string for a fence (markdown-it does not)', () => {
    const text = 'Look:\n```a`b\nstill the paragraph\n';
    assert.deepEqual(splitMarkdownBlocks(text), [text]);
  });

  it('decides no boundary on a line still being written: "1" may become the next item of the list', () => {
    assert.deepEqual(splitMarkdownBlocks('1. a\n\n1'), ['1. a\n\n1']);
    assert.deepEqual(splitMarkdownBlocks('1. a\n\n1. b\n'), ['1. a\n\n1. b\n']);
    assert.deepEqual(splitMarkdownBlocks('Para\n```ts'), ['Para\n```ts']);
  });

  it('reports which blocks are unchanged since the last split', () => {
    const splitter = new IncrementalBlockSplitter();
    splitter.split('one\n\ntwo\n\nthree\n');
    assert.equal(splitter.split('one\n\ntwo\n\nthree\nmore').unchangedBefore, 2);
    assert.equal(splitter.split('one\n\ntwo\n\nthree\nmore').unchangedBefore, 3);
  });

  it('reports as unchanged exactly the blocks whose offsets are the same as in the last split, at every step', () => {
    const text =
      'Intro\n\n```ts\nconst a = 1;\n\n```\nAfter the fence.\n\n- a\n- b\n\n  more\n\n> q\n\n~~~\nx\n~~~\n\nEnd [l]\n\n[l]: https://e.org\nlast';
    for (const size of [1, 2, 3, 7]) {
      const splitter = new IncrementalBlockSplitter();
      let previous: number[] = [];
      let previousText = '';
      for (let end = 0; end < text.length + size; end += size) {
        const prefix = text.slice(0, Math.min(end, text.length));
        const split = splitter.split(prefix);
        const starts = [...split.starts];
        assert.deepEqual(starts, new IncrementalBlockSplitter().split(prefix).starts, `starts at ${prefix.length}`);
        // A block is unchanged if it starts and ends where it did; the old last block only if the text is the same.
        let expected = 0;
        if (prefix === previousText) expected = starts.length;
        else
          while (
            expected < previous.length - 1 &&
            expected < starts.length - 1 &&
            previous[expected] === starts[expected] &&
            previous[expected + 1] === starts[expected + 1]
          )
            expected++;
        assert.equal(split.unchangedBefore, expected, `chunks of ${size}, at ${prefix.length}`);
        previous = starts;
        previousText = prefix;
      }
    }
  });

  it('incremental splitting copes with text that was replaced, not extended', () => {
    const splitter = new IncrementalBlockSplitter();
    splitter.split('first\n\nsecond');
    const split = splitter.split('other\n\ntext\n');
    assert.deepEqual(blockTexts('other\n\ntext\n', split.starts), ['other\n\n', 'text\n']);
    assert.equal(split.unchangedBefore, 0);
  });
});

describe('markdown rendering', () => {
  it('escapes raw HTML instead of rendering it', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)> <script>alert(1)</script>');
    assert.ok(!html.includes('<img'), html);
    assert.ok(!html.includes('<script'), html);
    assert.ok(html.includes('&lt;script&gt;'));
  });

  it('keeps http, https, mailto and file links', () => {
    for (const url of ['https://example.com/a', 'http://example.com', 'mailto:me@example.com', 'file:///tmp/a.ts']) {
      assert.ok(renderMarkdown(`[x](${url})`).includes(`href="${url}"`), url);
    }
  });

  it('drops vscode: links and UNC paths (the text stays)', () => {
    for (const url of ['vscode:extension/x.y', 'vscode://file/etc/passwd', '%2F%2Fhost/share/x', 'file://host/share/x']) {
      const html = renderMarkdown(`[label](${url})`);
      assert.ok(!html.includes('href='), `${url}: ${html}`);
      assert.ok(html.includes('label'), url);
    }
  });

  it('drops javascript:, data: and command: links (the text stays)', () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,hi', 'command:workbench.action.quit', 'vbscript:x']) {
      const html = renderMarkdown(`[click](${url})`);
      assert.ok(!html.includes('href'), `${url}: ${html}`);
      assert.ok(html.includes('click'));
    }
  });

  it('renders code blocks as pre/code and does not render images', () => {
    assert.ok(renderMarkdown('```\nx\n```').startsWith('<pre tabindex="0"><code>'));
    assert.ok(!renderMarkdown('![alt](https://example.com/a.png)').includes('<img'));
  });
});
