/**
 * Issue 31: VS Code compiles the whole of dist/extension.js before `activate` runs, on every start and Reload Window,
 * before the chat's HTML can be set. That bundle sets the chat's page and nothing more; the rest (extension-main.js)
 * loads right after, and what even the rest needs only sometimes loads from files of its own when first used.
 * Reads the bundles' metafiles (esbuild.mjs writes each beside its bundle).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { repoRoot } from '../../support/repo-root';

interface Metafile {
  readonly inputs: Readonly<Record<string, unknown>>;
}

function inputsOf(bundle: string): string[] {
  const file = path.join(repoRoot(), 'dist', `${bundle}.meta.json`);
  assert.ok(existsSync(file), `${file} is missing: run node esbuild.mjs first`);
  return Object.keys((JSON.parse(readFileSync(file, 'utf8')) as Metafile).inputs).map((input) => input.replaceAll('\\', '/'));
}

function packagesIn(inputs: readonly string[], names: readonly string[]): string[] {
  return names.filter((name) => inputs.some((input) => input.includes(`node_modules/${name}/`)));
}

describe('the bundle VS Code loads at start (dist/extension.js)', () => {
  it('holds no package at all, only the stand-ins for the chat view, the commands and the API', () => {
    const inputs = inputsOf('extension');
    assert.deepEqual(
      inputs.filter((input) => input.includes('node_modules/')),
      [],
    );
    assert.ok(inputs.includes('src/boot/chat-view-shell.ts'), inputs.join(', '));
  });

  it('loads the rest from a file of its own next to it', () => {
    const bundle = readFileSync(path.join(repoRoot(), 'dist', 'extension.js'), 'utf8');
    assert.match(bundle, /require\("\.\/extension-main\.js"\)/);
    assert.ok(existsSync(path.join(repoRoot(), 'dist', 'extension-main.js')));
  });

  it('loads markdown-it, for the conversation put in a restored chat page, from a file of its own', () => {
    const bundle = readFileSync(path.join(repoRoot(), 'dist', 'extension.js'), 'utf8');
    assert.match(bundle, /require\("\.\/preview-html\.js"\)/);
    assert.deepEqual(packagesIn(inputsOf('preview-html'), ['markdown-it']), ['markdown-it']);
    const part: unknown = createRequire(path.join(repoRoot(), 'dist', 'extension.js'))('./preview-html.js');
    const render = Reflect.get(Object(part), 'previewHtml') as (preview: unknown) => string;
    const entries = [{ kind: 'message', key: 'msg:agent:1', role: 'agent', content: [{ type: 'text', text: '**hi**' }] }];
    assert.match(render({ conversationId: 'c', entries, terminals: {} }), /<strong>hi<\/strong>/);
  });
});

describe('the rest of the extension (dist/extension-main.js)', () => {
  const heavy = ['tar', 'yauzl', 'unbzip2-stream', '@modelcontextprotocol/sdk', 'ajv', 'zod-to-json-schema', '@hono/node-server'];

  it('holds neither the registry installer archive libraries nor the MCP SDK and its validator', () => {
    assert.deepEqual(packagesIn(inputsOf('extension-main'), heavy), []);
  });

  it("holds zod's English locale and no other", () => {
    const locales = inputsOf('extension-main')
      // Files only: esbuild.mjs puts a module of its own (`zod-en:` …) in place of the locales' index.
      .filter((input) => !/^[a-z-]{2,}:/.test(input) && /node_modules\/zod\/.*\/locales\/[^/]+$/.test(input))
      .map((input) => path.basename(input));
    assert.deepEqual(locales, ['en.js']);
  });

  it('leaves the lazily loaded parts to files of their own, which load in Node', () => {
    // As dist/extension-main.js loads them: `require` of a file next to it.
    const load = createRequire(path.join(repoRoot(), 'dist', 'extension-main.js'));
    const archives: unknown = load('./archive-libs.js');
    assert.deepEqual(Object.keys(Object(archives)).sort(), ['tar', 'unbzip2', 'yauzl']);
    const editorTools: unknown = load('./editor-tools-server.js');
    assert.equal(typeof Reflect.get(Object(editorTools), 'startEditorTools'), 'function');
    assert.deepEqual(packagesIn(inputsOf('editor-tools-server'), ['@modelcontextprotocol/sdk']), ['@modelcontextprotocol/sdk']);
  });
});
