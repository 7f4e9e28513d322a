// Builds every bundle: the extension (Node, CommonJS, `vscode` external), the webview (browser IIFE) and the
// test and fixture code (each file on its own, dependencies left to node_modules).
//   node esbuild.mjs            production bundles for the .vsix (minified)
//   node esbuild.mjs --dev      unminified with source maps
//   node esbuild.mjs --tests    also test suites, fixture agents, the mock Anthropic API and benchmarks into out/
//   node esbuild.mjs --watch    dev bundles, rebuilt on every change (`npm run watch`; .vscode/tasks.json reads its
//                               "[watch]" lines and its errors with a background problem matcher)
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const args = new Set(process.argv.slice(2));
const watch = args.has('--watch');
const dev = args.has('--dev') || args.has('--tests') || watch;
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

/**
 * zod v4 re-exports every locale (`z.locales`), about 280 KB of the extension's bundle that is never used: zod
 * speaks English unless told otherwise (`config(en())` in zod/v4/classic). Its locales index becomes `en` alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.c?js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(args.resolveDir, args.path), namespace: 'zod-en' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from './en.${args.path.endsWith('.cjs') ? 'cjs' : 'js'}';`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * Parts of the extension not needed before the chat's first paint, each its own file next to dist/extension.js:
 * the bundle VS Code compiles before `activate` runs stays small, and a part costs its load only when first used.
 * In the source they are plain `await import('…/<name>')`: the extension bundle leaves those out (a `require` of
 * `./<name>.js` at run time); the tests bundle them as usual.
 */
const lazyParts = [
  // tar, yauzl, unbzip2-stream: unpacking a registry agent's archive.
  { name: 'archive-libs', entry: 'src/agents/registry/archive-libs.ts' },
  // The editor tools' MCP server: the MCP SDK, ajv, its HTTP server and the zod it validates tool arguments with.
  { name: 'editor-tools-server', entry: 'src/editor-tools/editor-tools-server.ts' },
  // markdown-it, for the conversation put in the chat page's HTML when the view is restored (src/views/preview-html.ts).
  { name: 'preview-html', entry: 'src/views/preview-html.ts' },
];
const lazyPartsExternal = {
  name: 'lazy-parts-external',
  setup(build) {
    for (const { name } of lazyParts)
      build.onResolve({ filter: new RegExp(`/${name}$`) }, (args) => {
        if (args.kind !== 'dynamic-import')
          return { errors: [{ text: `${name} loads lazily: import it with \`await import(...)\` only (a type import is fine)` }] };
        return { path: `./${name}.js`, external: true };
      });
  },
};

/**
 * The first bundle (src/extension.ts) is small: it sets the chat's page, then `require`s the rest, which is a file
 * of its own (issue 31: VS Code asks for the chat's HTML only after the bundle it loads has run `activate`).
 */
const mainPartExternal = {
  name: 'main-part-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/extension-main$/ }, (args) => {
      if (args.kind !== 'require-call') return { errors: [{ text: 'extension-main loads when first needed: `require` it only' }] };
      return { path: './extension-main.js', external: true };
    });
  },
};

/** The Node bundles the extension host loads: the extension itself and its lazily loaded parts. */
const extensionHost = {
  ...common,
  platform: 'node',
  format: 'cjs',
  external: ['vscode'],
  // jsonc-parser's main build is UMD with requires esbuild cannot follow; its ES module build bundles cleanly.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // A lazy part is `require`d (extension hosts load CommonJS), not `import()`ed.
  supported: { 'dynamic-import': false },
};

const bundles = [
  {
    ...extensionHost,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    plugins: [mainPartExternal, lazyPartsExternal],
    // Read by test/unit/build: what the bundle VS Code loads at start holds.
    metafile: true,
  },
  {
    ...extensionHost,
    entryPoints: ['src/extension-main.ts'],
    outfile: 'dist/extension-main.js',
    plugins: [zodEnglishOnly, lazyPartsExternal],
    metafile: true,
  },
  ...lazyParts.map(({ name, entry }) => ({
    ...extensionHost,
    entryPoints: [entry],
    outfile: `dist/${name}.js`,
    plugins: [zodEnglishOnly],
    metafile: true,
  })),
  {
    // Its own small program, one per running agent (src/agents/supervisor/agent-supervisor.ts): only Node built-ins.
    ...common,
    entryPoints: ['src/agents/supervisor/agent-supervisor.ts'],
    outfile: 'dist/agent-supervisor.js',
    platform: 'node',
    format: 'cjs',
  },
  {
    // The editor tools' stdio bridge, run by stdio-only agents as their "editor" MCP server: only Node built-ins.
    ...common,
    entryPoints: ['src/editor-tools/bridge/editor-tools-bridge.ts'],
    outfile: 'dist/editor-tools-bridge.js',
    platform: 'node',
    format: 'cjs',
  },
  {
    // The prompt's guard, which the page's HTML holds itself (a few hundred bytes): Enter and typing behave from the
    // first frame.
    ...common,
    entryPoints: ['webview/prompt-guard.ts'],
    outfile: 'dist/prompt-guard.js',
    platform: 'browser',
    format: 'iife',
  },
  {
    // The page's first script, small so the prompt (in the HTML) is typeable at once; it loads the next one.
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
  },
  {
    // The chat itself: vscode-elements, markdown-it and the views.
    ...common,
    entryPoints: ['webview/chat-main.ts'],
    outfile: 'dist/webview-chat.js',
    platform: 'browser',
    format: 'iife',
    loader: { '.ttf': 'file', '.css': 'text' },
  },
  {
    // The chat page's stylesheets as one file (media/chat-page.css lists them in cascade order).
    entryPoints: ['media/chat-page.css'],
    outfile: 'dist/chat-page.css',
    bundle: true,
    minify: !dev,
    logLevel: 'warning',
  },
];

copyCodicons();
if (watch) {
  // One line per build start and end, and each error as `path:line:column: error: text`, for the problem matcher.
  const reporter = {
    name: 'watch-reporter',
    setup(build) {
      build.onStart(() => console.log('[watch] build started'));
      build.onEnd((result) => {
        for (const { text, location } of result.errors)
          console.log(`${location?.file ?? '?'}:${location?.line ?? 0}:${(location?.column ?? 0) + 1}: error: ${text}`);
        console.log('[watch] build finished');
      });
    },
  };
  for (const options of bundles)
    await (await esbuild.context({ ...options, logLevel: 'silent', plugins: [...(options.plugins ?? []), reporter] })).watch();
} else {
  await buildAll();
}

async function buildAll() {
  const builds = bundles.map((options) =>
    esbuild.build(options).then((result) => {
      if (result.metafile) writeFileSync(options.outfile.replace(/\.js$/, '.meta.json'), JSON.stringify(result.metafile));
    }),
  );

  if (withTests) {
    const perFile = { bundle: true, sourcemap: 'inline', logLevel: 'warning', target: 'es2022', platform: 'node', packages: 'external' };
    const testEntries = [
      ...filesUnder('test/unit', '.ts'),
      ...filesUnder('test/integration', '.ts'),
      ...filesUnder('test/e2e', '.ts'),
      ...filesUnder('test/support', '.ts'),
      ...['mock-anthropic', 'mock-llm', 'mock-openai', 'mock-gemini', 'mcp-server'].flatMap((mock) =>
        filesUnder(join('test', 'fixtures', mock), '.ts'),
      ),
      ...filesUnder('bench', '.ts').filter((file) => !file.includes(join('bench', 'webview', 'page'))),
    ];
    // bench/webview/page runs in Chromium: the webview bench bundles it for the browser itself.
    builds.push(
      esbuild.build({ ...perFile, entryPoints: testEntries, outdir: 'out', outbase: '.', format: 'cjs', external: ['vscode'] }),
      // The official SDK is ESM only, so the scripted agents are ES modules.
      esbuild.build({
        ...perFile,
        entryPoints: filesUnder('test/fixtures/agents', '.ts'),
        outdir: 'out/test/fixtures/agents',
        format: 'esm',
        outExtension: { '.js': '.mjs' },
      }),
    );
  }

  await Promise.all(builds);
}

function copyCodicons() {
  // Codicons ship as a stylesheet + font; the .vsix carries no node_modules, so they are copied next to the bundles.
  mkdirSync('dist/codicons', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) cpSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/codicons/${file}`);
}
