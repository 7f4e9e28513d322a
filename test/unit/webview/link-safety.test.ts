import * as assert from 'node:assert/strict';
import { classifyLink, isSafeLink } from '../../../src/shared/link-safety';

describe('link safety', () => {
  it('lets web and mail links open outside', () => {
    assert.deepEqual(classifyLink('https://example.com/x?y#z'), { type: 'external', url: 'https://example.com/x?y#z' });
    assert.equal(classifyLink('MAILTO:a@b.c').type, 'external');
  });

  it("blocks vscode: links, which reach extensions' URI handlers and VS Code's own (open a file, install, clone)", () => {
    for (const url of [
      'vscode:extension/ms-python.python',
      'VSCODE://vscode.git/clone?url=https://evil.example/r.git',
      'vscode://file/etc/passwd',
      'vscode-insiders://file/etc/passwd',
    ])
      assert.equal(classifyLink(url).type, 'blocked', url);
  });

  it('blocks UNC paths and remote hosts however they are spelled (Windows would reach the host over SMB)', () => {
    for (const url of [
      '%2F%2Fhost/share/x',
      '%2f%2Fhost%2Fshare',
      '%5C%5Chost%5Cshare%5Cx',
      '/%2Fhost/share',
      '%2F/host/share',
      String.raw`\\host\share`,
      '/\\host/share',
      '\\/host/share',
      '%5C/host/share',
      '\\\\?\\C:\\x',
      'file://host/share/x',
      'file:%2F%2Fhost/share/x',
      'file:////host/share/x',
      'file:%5C%5Chost%5Cshare',
      'FILE://evil.example/c$/x',
    ])
      assert.equal(classifyLink(url).type, 'blocked', url);
  });

  it('blocks a path with a NUL in it', () => {
    assert.equal(classifyLink('src/a.ts%00.png').type, 'blocked');
    assert.equal(classifyLink('file:///etc/passwd%00').type, 'blocked');
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
    assert.deepEqual(classifyLink('file://localhost/home/me/a.ts'), { type: 'file', path: '/home/me/a.ts' });
    assert.deepEqual(classifyLink('file:///C:/work/a.ts'), { type: 'file', path: '/C:/work/a.ts' });
  });

  it('treats scheme-less links and Windows drive paths as workspace files', () => {
    assert.deepEqual(classifyLink('src/extension.ts'), { type: 'file', path: 'src/extension.ts' });
    assert.deepEqual(classifyLink('src/extension.ts:42'), { type: 'file', path: 'src/extension.ts', line: 42 });
    assert.deepEqual(classifyLink('C:\\work\\a.ts'), { type: 'file', path: 'C:\\work\\a.ts' });
  });
});
