import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { chatHtml, inlineScriptText } from '../../../src/views/chat-html';
import { repoRoot } from '../../support/repo-root';

describe('chat webview HTML', () => {
  const html = chatHtml({
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: 'abc123',
    promptGuard: 'window.guard = "</script><script>alert(1)</script><!--";',
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
    chatScriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview-chat.js',
    styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/chat-page.css',
    codiconsUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css?a=1&b=2',
  });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1]?.replace(/&#39;|&apos;/g, "'") ?? '';
  const directives = new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );

  it('denies everything by default and runs only the nonced scripts: the inline guard and the first fetched one', () => {
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), ["'nonce-abc123'"]);
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.deepEqual(scripts, [
      '<script nonce="abc123">',
      '<script nonce="abc123" src="https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js">',
    ]);
  });

  it("holds the prompt's guard itself, right after the prompt, so Enter and typing behave from the first frame", () => {
    const script = /<script nonce="abc123">([\s\S]*?)<\/script>/.exec(html);
    assert.ok(script, 'an inline script under the nonce');
    assert.equal(script[1], 'window.guard = "\\x3C/script>\\x3Cscript>alert(1)\\x3C/script>\\x3C!--";');
    assert.ok(html.indexOf('</textarea>') < script.index, 'after the prompt it guards');
    assert.ok(script.index < html.indexOf('/dist/webview.js'), 'before the fetched script');
  });

  it('keeps a script inline whatever its text: no end tag or comment opener survives, and the code means the same', () => {
    // Each evaluates to a value that the escape must not change.
    for (const source of ['"</script><script>"', "'</SCRIPT >' + `<!--`", '/<\\/script/.test("</script>")', '1 < 2']) {
      const text = inlineScriptText(source);
      assert.ok(!/<\/?script|<!--/i.test(text), text);
      assert.equal(new Function(`return ${text}`)(), new Function(`return ${source}`)());
    }
  });

  it('takes styles, fonts and images only from the extension (images also as data: URIs), with no unsafe-inline', () => {
    assert.deepEqual(directives.get('style-src'), ['https://file+.vscode-resource.vscode-cdn.net']);
    assert.deepEqual(directives.get('font-src'), ['https://file+.vscode-resource.vscode-cdn.net']);
    assert.deepEqual(directives.get('img-src'), ['https://file+.vscode-resource.vscode-cdn.net', 'data:']);
    assert.ok(!csp.includes('unsafe'));
  });

  it('has the prompt in the HTML itself, so it is on screen and takes typing before any script runs', () => {
    const prompts = html.match(/<textarea[^>]*>/g) ?? [];
    assert.equal(prompts.length, 1);
    assert.match(prompts[0]!, /aria-label="Prompt"/);
    assert.match(prompts[0]!, /data-boot-prompt/);
    assert.ok(!/\sdisabled/.test(prompts[0]!), 'typeable');
    // Before the script: the prompt is in the page's main landmark, in the composer chat.css lays out.
    assert.ok(html.indexOf('<main class="chat">') < html.indexOf('<textarea') && html.indexOf('<textarea') < html.indexOf('<script'));
  });

  it("lets only the chat's stylesheets hold the first paint: the codicons are linked for print (the first script switches them on)", () => {
    const links = html.match(/<link[^>]*rel="stylesheet"[^>]*>/g) ?? [];
    assert.equal(links.length, 2);
    const codicons = links.find((link) => link.includes('vscode-codicon-stylesheet'));
    assert.match(codicons ?? '', /media="print"/);
    const chat = links.filter((link) => link.includes('/dist/chat-page.css'));
    assert.equal(chat.length, 1);
    assert.ok(!chat[0]!.includes('media='));
  });

  it("preloads the chat's script under the nonce, after the stylesheets, so it is fetched while the first frame is painted", () => {
    const preloads = html.match(/<link[^>]*rel="preload"[^>]*>/g) ?? [];
    assert.equal(preloads.length, 1);
    assert.match(preloads[0]!, /as="script"/);
    assert.match(preloads[0]!, /href="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview-chat\.js"/);
    assert.match(preloads[0]!, /nonce="abc123"/);
    assert.ok(html.lastIndexOf('rel="stylesheet"') < html.indexOf('rel="preload"'), 'the first paint waits for no script bytes');
  });

  it('links the codicons where vscode-elements looks for them, escaping the URI', () => {
    assert.ok(
      html.includes(
        'id="vscode-codicon-stylesheet" href="https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css?a=1&amp;b=2"',
      ),
    );
  });

  it("links the chat's stylesheet after the codicons, so its rules win where they meet", () => {
    const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]*)"/g)].map((match) => match[1]);
    assert.deepEqual(links, [
      'https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css?a=1&amp;b=2',
      'https://file+.vscode-resource.vscode-cdn.net/ext/dist/chat-page.css',
    ]);
  });

  it("bundles every stylesheet under media/ into the page's one, each once, none over 700 lines", () => {
    const media = path.join(repoRoot(), 'media');
    const imports = [...readFileSync(path.join(media, 'chat-page.css'), 'utf8').matchAll(/^@import '\.\/([^']+)';$/gm)].map(
      (match) => match[1]!,
    );
    const onDisk = readdirSync(media, { recursive: true, encoding: 'utf8' })
      .map((name) => name.split(path.sep).join('/'))
      .filter((name) => name.endsWith('.css') && name !== 'chat-page.css');
    assert.deepEqual([...imports].sort(), onDisk.sort());
    assert.equal(new Set(imports).size, imports.length);
    // Narrow sidebars and high contrast override the components: that file comes last.
    assert.equal(imports.at(-1), 'chat.css');
    for (const name of imports) {
      const lines = readFileSync(path.join(media, name), 'utf8').split('\n').length;
      assert.ok(lines <= 700, `${name} has ${lines} lines`);
    }
  });
});
