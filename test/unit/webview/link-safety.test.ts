import * as assert from 'node:assert/strict';
import { classifyLink, isSafeLink } from '../../../webview/link-safety';

describe('link safety', () => {
  it('lets web, mail and vscode links open outside', () => {
    assert.deepEqual(classifyLink('https://example.com/x?y#z'), { type: 'external', url: 'https://example.com/x?y#z' });
    assert.equal(classifyLink('MAILTO:a@b.c').type, 'external');
    assert.equal(classifyLink('vscode:extension/ms-python.python').type, 'external');
  });

  it('blocks script-capable and unknown schemes, even disguised', () => {
    for (const url of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:x',
      '\u0001javascript:x',
      'data:text/html;base64,AAAA',
      'vbscript:x',
      'command:foo',
      'ftp://x',
      'vscode-webview://x',
    ]) {
      assert.equal(isSafeLink(url), false, JSON.stringify(url));
    }
  });

  it('blocks protocol-relative and fragment-only links', () => {
    assert.equal(classifyLink('//evil.example/x').type, 'blocked');
    assert.equal(classifyLink('#top').type, 'blocked');
  });

  it('turns file: URIs into paths with an optional line', () => {
    assert.deepEqual(classifyLink('file:///home/me/a%20b.ts'), { type: 'file', path: '/home/me/a b.ts' });
    assert.deepEqual(classifyLink('file:///home/me/a.ts#L12'), { type: 'file', path: '/home/me/a.ts', line: 12 });
  });

  it('treats scheme-less links and Windows drive paths as workspace files', () => {
    assert.deepEqual(classifyLink('src/extension.ts'), { type: 'file', path: 'src/extension.ts' });
    assert.deepEqual(classifyLink('src/extension.ts:42'), { type: 'file', path: 'src/extension.ts', line: 42 });
    assert.deepEqual(classifyLink('C:\\work\\a.ts'), { type: 'file', path: 'C:\\work\\a.ts' });
  });
});
