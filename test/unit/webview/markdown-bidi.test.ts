import * as assert from 'node:assert/strict';
import { renderMarkdown } from '../../../src/shared/markdown';

describe('markdown message bodies and bidi controls', () => {
  it('keeps right-to-left prose, isolates and marks as written', () => {
    assert.equal(renderMarkdown('שלום \u2067עולם\u2069 \u200Fمرحبا'), '<p>שלום \u2067עולם\u2069 \u200Fمرحبا</p>\n');
  });

  it('shows an override in prose, so a file name in a message cannot read as another', () => {
    assert.equal(renderMarkdown('open invoice\u202Egpj.exe now'), '<p>open invoice&lt;U+202E&gt;gpj.exe now</p>\n');
  });

  it('shows every bidi and invisible character in code, where Trojan Source hides', () => {
    assert.equal(renderMarkdown('`a\u2067b\u200Bc`'), '<p><code>a&lt;U+2067&gt;b&lt;U+200B&gt;c</code></p>\n');
    assert.equal(renderMarkdown('```\nif (x\u202E) {}\n```'), '<pre tabindex="0"><code>if (x&lt;U+202E&gt;) {}\n</code></pre>\n');
  });
});
