/**
 * Issue 31: VS Code compiles the whole of dist/extension.js before `activate` runs, on every start and Reload Window,
 * before the chat's HTML can be set. What is not needed before the chat's first paint stays out of it and loads
 * from its own file when first used. Reads the bundle's metafile (esbuild.mjs writes it beside the bundle).
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
  const heavy = ['tar', 'yauzl', 'unbzip2-stream', '@modelcontextprotocol/sdk', 'ajv', 'zod-to-json-schema', '@hono/node-server'];

  it('holds neither the registry installer archive libraries nor the MCP SDK and its validator', () => {
    assert.deepEqual(packagesIn(inputsOf('extension'), heavy), []);
  });

  it("holds zod's English locale and no other", () => {
    const locales = inputsOf('extension')
      // Files only: esbuild.mjs puts a module of its own (`zod-en:` …) in place of the locales' index.
      .filter((input) => !/^[a-z-]{2,}:/.test(input) && /node_modules\/zod\/.*\/locales\/[^/]+$/.test(input))
      .map((input) => path.basename(input));
    assert.deepEqual(locales, ['en.js']);
  });

  it('leaves the lazily loaded parts to files of their own, which load in Node', () => {
    // As dist/extension.js loads them: `require` of a file next to it.
    const load = createRequire(path.join(repoRoot(), 'dist', 'extension.js'));
    const archives: unknown = load('./archive-libs.js');
    assert.deepEqual(Object.keys(Object(archives)).sort(), ['tar', 'unbzip2', 'yauzl']);
    const editorTools: unknown = load('./editor-tools-server.js');
    assert.equal(typeof Reflect.get(Object(editorTools), 'startEditorTools'), 'function');
    assert.deepEqual(packagesIn(inputsOf('editor-tools-server'), ['@modelcontextprotocol/sdk']), ['@modelcontextprotocol/sdk']);
  });
});
