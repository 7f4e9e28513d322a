// Builds every bundle: the extension (Node, CommonJS, `vscode` external), the webview (browser IIFE) and the
// test and fixture code (each file on its own, dependencies left to node_modules).
//   node esbuild.mjs            production bundles for the .vsix (minified)
//   node esbuild.mjs --dev      unminified with source maps
//   node esbuild.mjs --tests    also test suites, fixture agents, the mock Anthropic API and benchmarks into out/
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = new Set(process.argv.slice(2));
const dev = args.has('--dev') || args.has('--tests');
const withTests = args.has('--tests');

function filesUnder(dir, suffix) {
  let found = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found = found.concat(filesUnder(path, suffix));
    else if (name.endsWith(suffix)) found.push(path);
  }
  return found;
}

const common = { bundle: true, sourcemap: dev ? 'linked' : false, minify: !dev, logLevel: 'warning', target: 'es2022' };

const builds = [
  esbuild.build({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
  }),
  esbuild.build({
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    loader: { '.ttf': 'file' },
  }),
];

if (withTests) {
  const perFile = { bundle: true, sourcemap: 'inline', logLevel: 'warning', target: 'es2022', platform: 'node', packages: 'external' };
  const testEntries = [...filesUnder('test/unit', '.ts'), ...filesUnder('test/integration', '.ts'), ...filesUnder('test/e2e', '.ts'), ...filesUnder('test/support', '.ts'), ...['mock-anthropic', 'mock-llm', 'mock-openai', 'mock-gemini'].flatMap((mock) => filesUnder(join('test', 'fixtures', mock), '.ts')), ...filesUnder('bench', '.ts').filter((file) => !file.includes(join('bench', 'webview', 'page')))];
  // bench/webview/page runs in Chromium: the webview bench bundles it for the browser itself.
  builds.push(
    esbuild.build({ ...perFile, entryPoints: testEntries, outdir: 'out', outbase: '.', format: 'cjs', external: ['vscode'] }),
    // The official SDK is ESM only, so the scripted agents are ES modules.
    esbuild.build({ ...perFile, entryPoints: filesUnder('test/fixtures/agents', '.ts'), outdir: 'out/test/fixtures/agents', format: 'esm', outExtension: { '.js': '.mjs' } }),
  );
}

await Promise.all(builds);

// Codicons ship as a stylesheet + font; the .vsix carries no node_modules, so they are copied next to the bundles.
mkdirSync('dist/codicons', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) cpSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/codicons/${file}`);
