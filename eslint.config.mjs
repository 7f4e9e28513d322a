// Lint for the whole repo: typescript-eslint on our TypeScript, the layer order of src/ and no import circles.
// Formatting is prettier's (`npm run lint` also runs `prettier --check`); eslint-config-prettier keeps the two apart.
import js from '@eslint/js';
import eslintConfigPrettier from 'eslint-config-prettier/flat';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Top to bottom: a folder may import from the folders below it, never from one above. extension.ts (the small first
// bundle) with its stand-ins in boot, extension-main.ts (the composition root) and api.ts sit above them all. conversations holds each chat and its agent session (it owns a turn's controller
// and the history recorder); changes tracks what an agent's turns changed on disk (it reads the transcript store);
// history is the event-sourced log on disk (pure data, below the turn); editor-tools is the editor's MCP server for
// agents (no vscode: the editor layer adapts VS Code to its ports).
const LAYERS = [
  'commands',
  'views',
  'editor',
  'conversations',
  'changes',
  'session',
  'history',
  'editor-tools',
  'client',
  'agents',
  'acp',
  'shared',
];
const layerZones = LAYERS.slice(1).map((layer, index) => ({
  target: `./src/${layer}`,
  from: [
    './src/extension.ts',
    './src/extension-main.ts',
    './src/boot',
    './src/api.ts',
    ...LAYERS.slice(0, index + 1).map((above) => `./src/${above}`),
  ],
  message: `src/${layer} sits below ${LAYERS.slice(0, index + 1).join(', ')}: imports point down only (README, Architecture).`,
}));
const VSCODE_FREE = ['conversations', 'changes', 'session', 'history', 'editor-tools', 'client', 'agents', 'acp', 'shared'].map(
  (layer) => `src/${layer}/**/*.ts`,
);
const NO_VSCODE = {
  name: 'vscode',
  message: 'Only extension.ts, extension-main.ts, boot, commands, views and editor import vscode; this layer runs in plain Node.',
};
// The transport library stays in src/acp: errors and cancellation cross the boundary as src/acp/rpc-boundary.ts's types.
const NO_WIRE_LIBRARY = {
  group: ['vscode-jsonrpc', 'vscode-jsonrpc/*'],
  message: 'Only src/acp imports vscode-jsonrpc: use RpcError, RpcErrorCode, CancellationSignal from src/acp/rpc-boundary.',
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', '.vscode-test/**', '**/*.mjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { parserOptions: { projectService: false } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSAsExpression[typeAnnotation.type="TSUnknownKeyword"]',
          message: 'No `as unknown as`: parse or narrow instead.',
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...layerZones,
            {
              target: './webview',
              from: './src',
              except: ['./shared'],
              message: 'The webview may import src/shared and nothing else from src/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    ignores: ['src/acp/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_WIRE_LIBRARY] }] },
  },
  {
    files: VSCODE_FREE,
    ignores: ['src/acp/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_VSCODE], patterns: [NO_WIRE_LIBRARY] }] },
  },
  { files: ['src/acp/**/*.ts'], rules: { 'no-restricted-imports': ['error', { paths: [NO_VSCODE] }] } },
  {
    files: ['src/shared/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Pure layer.' }],
          patterns: [{ group: ['node:*'], message: 'Pure layer: no Node built-ins.' }, NO_WIRE_LIBRARY],
        },
      ],
    },
  },
  eslintConfigPrettier,
);
