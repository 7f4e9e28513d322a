import * as assert from 'node:assert/strict';
import { splitLinks } from '../../../webview/markdown/text-links';

describe('links in plain notice text', () => {
  it('cuts out a web address, leaving the sentence around it as text', () => {
    assert.deepEqual(splitLinks('See https://example.com/limits. Then retry.'), [
      { type: 'text', text: 'See ' },
      { type: 'link', url: 'https://example.com/limits' },
      { type: 'text', text: '. Then retry.' },
    ]);
  });

  it('keeps text without an address, and schemes the link rules refuse, as text', () => {
    assert.deepEqual(splitLinks('javascript:alert(1) and ftp://x'), [{ type: 'text', text: 'javascript:alert(1) and ftp://x' }]);
    assert.deepEqual(splitLinks(''), []);
  });

  it('finds every address in the text', () => {
    assert.deepEqual(
      splitLinks('http://a.test and (https://b.test/x)').filter((segment) => segment.type === 'link'),
      [
        { type: 'link', url: 'http://a.test' },
        { type: 'link', url: 'https://b.test/x' },
      ],
    );
  });

  it('keeps balanced parentheses that belong to the address, and leaves a closing one that ends the sentence', () => {
    assert.deepEqual(splitLinks('Read https://en.wikipedia.org/wiki/Glob_(programming) first (or https://a.test/x).'), [
      { type: 'text', text: 'Read ' },
      { type: 'link', url: 'https://en.wikipedia.org/wiki/Glob_(programming)' },
      { type: 'text', text: ' first (or ' },
      { type: 'link', url: 'https://a.test/x' },
      { type: 'text', text: ').' },
    ]);
  });
});
