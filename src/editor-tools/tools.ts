/**
 * The editor's tools, registered on one MCP server instance. Each runs under the deadline, confines the path it
 * is given to the workspace folders, leaves out results outside them, and answers one bounded page (judging the
 * paths of that page only: inside-page.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { capString, pageOf } from './bounds';
import { withDeadline } from './deadline';
import type { Location, LocationKind, Problem, Severity } from './ports';
import type { ToolDeps } from './tool-deps';
import { errorResult, jsonResult, positionAt, shownProblem, spanOf } from './tool-results';
import { problemsAfterEdit } from './problems-after-edit';
import { pageInside } from './inside-page';

const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

const path = z.string().min(1).max(4096).describe('File path: absolute, or relative to the first workspace folder');
const line = z.number().int().min(1).max(10_000_000).describe('1-based line');
const column = z.number().int().min(1).max(10_000_000).describe('1-based column (character in the line)');
const cursor = z.string().max(20).optional().describe('nextCursor of the previous page');
const at = { path, line, column, cursor };

const LOCATION_TOOLS: readonly { name: string; kind: LocationKind; title: string; description: string }[] = [
  { name: 'definition', kind: 'definition', title: 'Go to definition', description: 'Where the symbol at a position is defined.' },
  { name: 'references', kind: 'references', title: 'Find references', description: 'Every reference to the symbol at a position.' },
  {
    name: 'type_definition',
    kind: 'type_definition',
    title: 'Go to type definition',
    description: 'Where the type of the symbol at a position is defined.',
  },
  {
    name: 'implementations',
    kind: 'implementations',
    title: 'Find implementations',
    description: 'Implementations of the interface or abstract member at a position.',
  },
];

export function registerTools(server: McpServer, deps: ToolDeps): void {
  const run = (what: string, work: (signal: AbortSignal) => Promise<unknown>): Promise<CallToolResult> =>
    withDeadline(what, deps.deadlineMs, work).then(jsonResult, errorResult);
  const { language, scope } = deps;

  server.registerTool(
    'problems',
    {
      title: 'Problems',
      description:
        'Diagnostics (errors, warnings) the editor has, from every installed language extension: of one file (path), of the files changed in this turn (scope "changed"), or of the whole workspace. Paged.',
      inputSchema: {
        path: path.optional(),
        scope: z.enum(['file', 'changed', 'workspace']).optional().describe('Default: "file" with a path, else "workspace"'),
        minSeverity: z.enum(['error', 'warning', 'information', 'hint']).optional().describe('Default: hint (all)'),
        cursor,
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run('problems', async () => {
        const scopeName = args.scope ?? (args.path !== undefined ? 'file' : 'workspace');
        let found: readonly Problem[];
        if (scopeName === 'file') {
          if (args.path === undefined) throw new Error('scope "file" needs a path');
          const file = await scope.confine(args.path);
          found = await language.problems(file);
        } else if (scopeName === 'changed') {
          const changed = language.changedFiles(deps.turnStartedAt()).map((file) => file.path);
          found = (await Promise.all(changed.map((file) => language.problems(file)))).flat();
        } else {
          found = await language.problems();
        }
        const limit = SEVERITY_ORDER.indexOf(args.minSeverity ?? 'hint');
        const wanted = found.filter((problem) => SEVERITY_ORDER.indexOf(problem.severity) <= limit);
        return pageInside(wanted, args.cursor, scope.judge, shownProblem);
      }),
  );

  server.registerTool(
    'problems_after_edit',
    {
      title: 'Problems after an edit',
      description:
        'Waits (bounded) until the language services settle after the latest edits, then returns, per file changed in this turn (or the files named), the problems that are new and those that were fixed.',
      inputSchema: {
        paths: z.array(path).max(100).optional(),
        quietMs: z.number().int().min(0).max(5000).optional().describe('How long diagnostics must stay unchanged (default 750)'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) => run('problems_after_edit', (signal) => problemsAfterEdit(deps, args.paths, args.quietMs ?? 750, signal)),
  );

  server.registerTool(
    'document_symbols',
    {
      title: 'Document symbols',
      description: 'The symbols (classes, functions, variables…) of one file, outline order. Paged.',
      inputSchema: { path, cursor },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run('document_symbols', async () => {
        const file = await scope.confine(args.path);
        language.follow({ path: file, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } });
        const symbols = await language.documentSymbols(file);
        return pageOf(symbols.map(shownSymbol), args.cursor);
      }),
  );

  server.registerTool(
    'workspace_symbols',
    {
      title: 'Workspace symbols',
      description: 'Symbols across the workspace whose name matches a query (as the editor\'s "Go to Symbol in Workspace"). Paged.',
      inputSchema: { query: z.string().max(200), cursor },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run('workspace_symbols', async () => {
        return pageInside(await language.workspaceSymbols(args.query), args.cursor, scope.judge, shownSymbol);
      }),
  );

  for (const tool of LOCATION_TOOLS)
    server.registerTool(
      tool.name,
      { title: tool.title, description: `${tool.description} Paged.`, inputSchema: at, annotations: { readOnlyHint: true } },
      (args) =>
        run(tool.name, async () => {
          const file = await scope.confine(args.path);
          const position = positionAt(args.line, args.column);
          language.follow({ path: file, range: { start: position, end: position } });
          return pageInside(await language.locations(tool.kind, file, position), args.cursor, scope.judge, shownLocation);
        }),
    );

  server.registerTool(
    'hover',
    {
      title: 'Hover',
      description: 'The type and documentation the editor shows when hovering a position.',
      inputSchema: { path, line, column },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run('hover', async () => {
        const file = await scope.confine(args.path);
        const position = positionAt(args.line, args.column);
        language.follow({ path: file, range: { start: position, end: position } });
        const texts = await language.hover(file, position);
        return { contents: texts.slice(0, 10).map((text) => capString(text)) };
      }),
  );

  server.registerTool(
    'call_hierarchy',
    {
      title: 'Call hierarchy',
      description: 'Who calls the function at a position (incoming), or what it calls (outgoing), where the language offers it. Paged.',
      inputSchema: { ...at, direction: z.enum(['incoming', 'outgoing']) },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run('call_hierarchy', async () => {
        const file = await scope.confine(args.path);
        const calls = await language.callHierarchy(file, positionAt(args.line, args.column), args.direction);
        return pageInside(calls, args.cursor, scope.judge, (call) => ({
          name: capString(call.name, 500),
          kind: call.kind,
          path: call.path,
          ...spanOf(call.range),
        }));
      }),
  );

  server.registerTool(
    'editor_context',
    {
      title: "The user's editor",
      description:
        'What the user has open: the open editors, and the active editor with its selection (and selected text) and visible range.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () =>
      run('editor_context', async () => {
        const context = await language.context();
        const { items: open, outside } = await scope.keepInside(context.openEditors);
        const active = context.active && (await scope.keepInside([context.active])).items[0];
        return {
          openEditors: open.slice(0, 200),
          ...(active
            ? {
                active: {
                  path: active.path,
                  languageId: active.languageId,
                  dirty: active.dirty,
                  selection: spanOf(active.selection),
                  selectedText: capString(active.selectedText),
                  visibleRanges: active.visibleRanges.slice(0, 10).map(spanOf),
                },
              }
            : {}),
          ...(outside > 0 ? { outsideWorkspace: outside } : {}),
        };
      }),
  );
}

function shownSymbol(symbol: {
  name: string;
  kind: string;
  path: string;
  range: Location['range'];
  detail?: string;
  container?: string;
}): Record<string, unknown> {
  return {
    name: capString(symbol.name, 500),
    kind: symbol.kind,
    path: symbol.path,
    ...spanOf(symbol.range),
    ...(symbol.detail ? { detail: capString(symbol.detail, 500) } : {}),
    ...(symbol.container ? { container: capString(symbol.container, 500) } : {}),
  };
}

function shownLocation(location: Location): Record<string, unknown> {
  return { path: location.path, ...spanOf(location.range) };
}
