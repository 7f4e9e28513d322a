/**
 * After the agent edits: wait until the language services settle on the touched files (bounded by the tool's
 * deadline), then say what is new and what was fixed compared with each file's problems before its first change in
 * this turn. Problems are compared by severity, message and start line, so one that only moved a column is neither.
 */
import { capString } from './bounds';
import type { Problem } from './ports';
import { shownProblem } from './tool-results';
import type { ToolDeps } from './tool-deps';

const MAX_FILES = 100;
const MAX_PER_FILE = 50;

export async function problemsAfterEdit(
  deps: ToolDeps,
  named: readonly string[] | undefined,
  quietMs: number,
  signal: AbortSignal,
): Promise<unknown> {
  const changed = deps.language.changedFiles(deps.turnStartedAt());
  const before = new Map(changed.map((file) => [file.path, file.problemsBefore]));
  const files = named ? await Promise.all(named.map((file) => deps.scope.confine(file))) : changed.map((file) => file.path);
  const inside = (await deps.scope.keepInside(files.slice(0, MAX_FILES).map((file) => ({ path: file })))).items.map((file) => file.path);
  if (inside.length === 0) return { files: [], note: 'No file was changed in this turn.' };
  await deps.language.diagnosticsSettled(inside, quietMs, signal);
  const results = [];
  for (const file of inside) {
    const now = await deps.language.problems(file);
    const earlier = before.get(file) ?? [];
    const fresh = difference(now, earlier);
    const fixed = difference(earlier, now);
    results.push({
      path: file,
      total: now.length,
      new: fresh.slice(0, MAX_PER_FILE).map(shownProblem),
      fixed: fixed.slice(0, MAX_PER_FILE).map((problem) => ({ ...shownProblem(problem), message: capString(problem.message, 500) })),
      ...(fresh.length > MAX_PER_FILE || fixed.length > MAX_PER_FILE ? { more: 'call problems with this path for the whole list' } : {}),
    });
  }
  return { files: results, ...(files.length > MAX_FILES ? { moreFiles: files.length - MAX_FILES } : {}) };
}

const keyOf = (problem: Problem): string => `${problem.severity}\u0000${problem.range.start.line}\u0000${problem.message}`;

function difference(from: readonly Problem[], without: readonly Problem[]): Problem[] {
  const remaining = new Map<string, number>();
  for (const problem of without) remaining.set(keyOf(problem), (remaining.get(keyOf(problem)) ?? 0) + 1);
  return from.filter((problem) => {
    const count = remaining.get(keyOf(problem)) ?? 0;
    if (count === 0) return true;
    remaining.set(keyOf(problem), count - 1);
    return false;
  });
}
