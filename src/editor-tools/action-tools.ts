/**
 * The editor's actions, each behind the user's permission: rename a symbol across the workspace, run a task, apply
 * a quick fix. What the action would do is computed first (under the tools' deadline), then the user is asked in the
 * conversation whose turn is running (action-ports.ts), and only an "Allow" makes the change. The wait for the
 * user's answer has no deadline of its own: cancelling the turn answers it. A refusal is a tool error that says why.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { withDeadline } from './deadline';
import type { ActionAsker, ActionQuestion, EditorActions, FileEdits, PlannedEdit, TaskCommand } from './action-ports';
import type { Caller } from './caller-tokens';
import type { ToolDeps } from './tool-deps';
import { errorResult, jsonResult, positionAt } from './tool-results';
import { capString } from './bounds';
import { errorMessage } from '../shared/error-text';

const path = z.string().min(1).max(4096).describe('File path: absolute, or relative to the first workspace folder');
const line = z.number().int().min(1).max(10_000_000).describe('1-based line');
const column = z.number().int().min(1).max(10_000_000).describe('1-based column (character in the line)');

/** How long run_task waits for the task to end by default, and at most. */
export const TASK_WAIT_DEFAULT_MS = 120_000;
export const TASK_WAIT_MAX_MS = 600_000;
/** Files named on the card and in the answer; the counts cover them all. */
const MAX_FILES_SHOWN = 50;

class Refused extends Error {}

export function registerActionTools(
  server: McpServer,
  deps: ToolDeps,
  actions: { readonly editor: EditorActions; readonly asker: ActionAsker },
  caller: Caller,
): void {
  const { scope } = deps;
  const { editor, asker } = actions;
  const inTime = <T>(what: string, work: () => Promise<T>): Promise<T> => withDeadline(what, deps.deadlineMs, () => work());

  /** Asks, runs `act` when allowed, and closes the card with what happened. */
  const askThen = async (
    question: ActionQuestion,
    signal: AbortSignal,
    act: (claim: (paths: readonly string[]) => Promise<void>) => Promise<Record<string, unknown>>,
  ): Promise<CallToolResult> => {
    const verdict = await asker.ask(question, signal, caller.conversation);
    if (!verdict.allowed) return errorResult(new Refused(verdict.reason));
    try {
      const answer = await act((paths) => verdict.claim(paths));
      verdict.finished({ ok: true, text: 'Done.' });
      return jsonResult(answer);
    } catch (error) {
      verdict.finished({ ok: false, text: `Failed: ${errorMessage(error)}` });
      return errorResult(error);
    }
  };

  /** A planned edit's files must all be inside the workspace folders, or nothing is asked nor changed. */
  const checkInside = async (files: readonly FileEdits[]): Promise<void> => {
    const verdicts = await scope.judge(files.map((file) => file.path));
    const outside = files.filter((_, index) => verdicts[index] !== true);
    if (outside.length > 0)
      throw new Refused(
        `Refused: the change would also edit ${outside.length} file(s) outside the workspace folders (${outside
          .slice(0, 5)
          .map((file) => file.path)
          .join(', ')}). Nothing was changed.`,
      );
  };

  server.registerTool(
    'rename_symbol',
    {
      title: 'Rename symbol',
      description:
        "Renames the symbol at a position across the workspace with the language's rename (as the editor's F2), after the user allows it. Answers the files changed and the edits in each, or why not.",
      inputSchema: { path, line, column, newName: z.string().min(1).max(500).describe('The new name') },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async (args, extra) => {
      try {
        const file = await scope.confine(args.path);
        const plan = await inTime('rename_symbol', () => editor.planRename(file, positionAt(args.line, args.column), args.newName));
        if (plan.files.length === 0) throw new Refused(`Nothing to rename at ${args.path}:${args.line}:${args.column}.`);
        await checkInside(plan.files);
        const question = editQuestion('rename_symbol', `Rename to "${capString(args.newName, 100)}"`, plan);
        return await askThen(question, extra.signal, async (claim) => {
          await claim(plan.files.map((changed) => changed.path));
          await inTime('rename_symbol', () => plan.apply());
          return { renamedTo: args.newName, ...filesAnswer(plan.files) };
        });
      } catch (error) {
        return errorResult(error);
      }
    },
  );

  server.registerTool(
    'run_task',
    {
      title: 'Run task',
      description:
        'Runs a VS Code task by its name (tasks.json or a task provider), after the user allows it, and answers its exit code once it ends (bounded wait). Without a name, answers the task names.',
      inputSchema: {
        name: z.string().min(1).max(500).optional().describe('The task name as VS Code shows it'),
        timeoutMs: z
          .number()
          .int()
          .min(1000)
          .max(TASK_WAIT_MAX_MS)
          .optional()
          .describe(`How long to wait for the end (default ${TASK_WAIT_DEFAULT_MS})`),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      try {
        const names = await inTime('run_task', () => editor.taskNames());
        if (args.name === undefined) return jsonResult({ tasks: names.slice(0, 200).map((name) => capString(name, 500)) });
        const name = args.name;
        if (!names.includes(name))
          throw new Refused(
            `No task named "${capString(name, 200)}". Tasks: ${
              names
                .slice(0, 50)
                .map((known) => JSON.stringify(capString(known, 200)))
                .join(', ') || 'none'
            }.`,
          );
        const waitMs = args.timeoutMs ?? TASK_WAIT_DEFAULT_MS;
        // The name is the workspace's to choose ("lint" may run anything): the card says what the task runs.
        const runs = await inTime('run_task', () => editor.taskCommand(name));
        const question: ActionQuestion = {
          tool: 'run_task',
          title: `Run the task "${capString(name, 200)}"`,
          detail:
            `The agent asks to run the VS Code task "${capString(name, 200)}" (waits up to ${Math.round(waitMs / 1000)} s for it to end). ` +
            taskRunsText(runs),
          paths: [],
          kind: 'execute',
        };
        return await askThen(question, extra.signal, async () => {
          const exitCode = await waitForTask(name, waitMs, (signal) => editor.runTask(name, signal));
          return { task: name, exitCode: exitCode ?? null };
        });
      } catch (error) {
        return errorResult(error);
      }
    },
  );

  server.registerTool(
    'apply_quick_fix',
    {
      title: 'Apply quick fix',
      description:
        'Lists the quick fixes the editor offers for the diagnostics at a position; with a title, applies that fix after the user allows it (with none and only one offered, that one). Answers the files changed.',
      inputSchema: {
        path,
        line,
        column: column.optional().describe('1-based column (default 1)'),
        title: z.string().min(1).max(500).optional().describe('The title of the fix to apply, as listed'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async (args, extra) => {
      try {
        const file = await scope.confine(args.path);
        const fixes = await inTime('apply_quick_fix', () => editor.quickFixes(file, positionAt(args.line, args.column ?? 1)));
        const listed = fixes.slice(0, 50).map((fix) => ({
          title: capString(fix.title, 500),
          ...(fix.diagnostic ? { diagnostic: capString(fix.diagnostic, 500) } : {}),
          ...(fix.preferred ? { preferred: true } : {}),
        }));
        const chosen =
          args.title === undefined ? (fixes.length === 1 ? fixes[0] : undefined) : fixes.find((fix) => fix.title === args.title);
        if (args.title !== undefined && !chosen)
          throw new Refused(`No quick fix titled "${capString(args.title, 200)}" here. Offered: ${JSON.stringify(listed)}`);
        if (!chosen) return jsonResult({ fixes: listed });
        const plan = chosen.edit;
        if (plan) await checkInside(plan.files);
        const question = plan
          ? editQuestion('apply_quick_fix', `Apply the quick fix "${capString(chosen.title, 200)}"`, plan)
          : {
              tool: 'apply_quick_fix',
              title: `Apply the quick fix "${capString(chosen.title, 200)}"`,
              detail: 'The fix makes no text edit here; it runs a command of the extension that offers it.',
              paths: [],
              kind: 'edit' as const,
            };
        return await askThen(question, extra.signal, async (claim) => {
          if (plan) await claim(plan.files.map((changed) => changed.path));
          if (plan) await inTime('apply_quick_fix', () => plan.apply());
          if (chosen.runCommand) await inTime('apply_quick_fix', () => chosen.runCommand?.() ?? Promise.resolve());
          return { applied: chosen.title, ...filesAnswer(plan?.files ?? []) };
        });
      } catch (error) {
        return errorResult(error);
      }
    },
  );
}

/** The question for an edit: the counts in the title, the files (with their edits) in the text and the dialog. */
export function editQuestion(tool: string, what: string, plan: PlannedEdit): ActionQuestion {
  const edits = plan.files.reduce((sum, file) => sum + file.edits, 0);
  const shown = plan.files.slice(0, MAX_FILES_SHOWN);
  const more = plan.files.length - shown.length;
  return {
    tool,
    title: `${what}: ${edits} ${edits === 1 ? 'edit' : 'edits'} in ${plan.files.length} ${plan.files.length === 1 ? 'file' : 'files'}`,
    detail: [
      ...shown.map((file) => `${file.path} (${file.edits} ${file.edits === 1 ? 'edit' : 'edits'})`),
      ...(more > 0 ? [`and ${more} more files`] : []),
    ].join('\n'),
    paths: shown.map((file) => file.path),
    kind: 'edit',
  };
}

function filesAnswer(files: readonly FileEdits[]): Record<string, unknown> {
  return {
    files: files.slice(0, MAX_FILES_SHOWN).map((file) => ({ path: file.path, edits: file.edits })),
    totalFiles: files.length,
    totalEdits: files.reduce((sum, file) => sum + file.edits, 0),
  };
}

/** The task's exit code, or a clear error once `waitMs` passed (the task is stopped then). */
export function waitForTask(
  name: string,
  waitMs: number,
  run: (signal: AbortSignal) => Promise<number | undefined>,
): Promise<number | undefined> {
  const controller = new AbortController();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`The task "${capString(name, 200)}" did not end within ${Math.round(waitMs / 1000)} s; it was stopped.`));
    }, waitMs);
    run(controller.signal).then(
      (code) => {
        clearTimeout(timer);
        resolve(code);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** What a task runs, for the card: its command line and where it is defined. */
function taskRunsText(runs: TaskCommand | undefined): string {
  if (runs === undefined) return 'What it runs could not be read.';
  const from = runs.source === 'Workspace' ? 'the workspace’s tasks.json' : `the ${capString(runs.source, 100)} task provider`;
  return runs.commandLine === undefined
    ? `It is defined by ${from} and runs that extension’s own code.`
    : `It is defined by ${from} and runs: ${capString(runs.commandLine, 1_000)}`;
}
