/**
 * Applying an undo or restore plan to the workspace, through the editor: what may be written (a plain file inside
 * the workspace, an intact stored copy), what the user changed since (a conflict unless forced), and what came of it.
 */
import { inspectWriteTarget, type WriteTarget } from '../client/write-target';
import type { Baseline } from './baseline';
import type { ChangeApplier, ChangeFiles, RestoreStep } from './change-ports';
import type { ContentStore } from './content-store';
import type { FileState } from './file-state';
import { conflictsOf, type RestorePlan } from './restore-plan';
import { snapshotFile } from './snapshot-read';
import { errorMessage } from '../shared/error-text';

/** A file left as it is, whatever the user answers, and why (it completes "Did not undo <name>: ..."). */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

export type ApplyOutcome =
  | {
      readonly kind: 'applied';
      readonly paths: readonly string[];
      readonly unrestorable: readonly string[];
      readonly skipped: readonly SkippedFile[];
    }
  /**
   * Files edited after the agent (`unsaved`: those with unsaved edits in an editor among them): nothing was
   * applied; ask, then call again with `force`.
   */
  | { readonly kind: 'conflict'; readonly paths: readonly string[]; readonly unsaved: readonly string[] }
  | { readonly kind: 'nothing' }
  /** Nothing applied: the editor refused, or no file could be (`skipped` says why, per file). */
  | { readonly kind: 'refused'; readonly skipped: readonly SkippedFile[] };

/** What applying a plan works with: the conversation's ports and baseline, and the paths being written now. */
export interface PlanApplication {
  readonly files: ChangeFiles;
  readonly content: ContentStore;
  readonly applier: ChangeApplier;
  readonly baseline: Baseline;
  /** Paths of our own edit in flight: the watcher's report of it is not a change by anyone. */
  readonly applying: Set<string>;
  /** How long the watcher's reports trail the edit. */
  readonly settleMs: number;
}

/**
 * Applies a plan. Files whose path on disk is no longer a plain file inside the workspace (a link, dangling or
 * not, a folder that became a link out, another case) and files whose stored copy is damaged are skipped whatever
 * `force` says; files the user changed since, saved or not, are a conflict unless `force`.
 */
export async function applyPlan(whole: RestorePlan, force: boolean, on: PlanApplication): Promise<ApplyOutcome> {
  if (whole.files.length === 0) return whole.unrestorable.length > 0 ? { kind: 'refused', skipped: [] } : { kind: 'nothing' };
  const skipped = [...(await blockedOf(whole.files, on.files.roots()))];
  const plan = { ...whole, files: whole.files.filter((f) => !skipped.some((s) => s.path === f.path)) };
  const current = await currentStates(
    on.files,
    on.content,
    plan.files.map((f) => f.path),
  );
  const changed = conflictsOf(plan, current);
  const unsaved = plan.files.map((f) => f.path).filter((p) => on.files.unsaved(p));
  const conflicts = [...new Set([...changed, ...unsaved])];
  if (conflicts.length > 0 && !force) return { kind: 'conflict', paths: conflicts, unsaved };
  const steps: RestoreStep[] = [];
  const missing: string[] = [];
  for (const file of plan.files) {
    if (file.target.kind === 'absent') {
      if (current.get(file.path)?.kind !== 'absent' || on.files.unsaved(file.path)) steps.push({ path: file.path, action: 'delete' });
      continue;
    }
    if (file.target.kind !== 'file') continue;
    const read = await on.content.read(file.target.hash);
    if (read.kind === 'ok') steps.push({ path: file.path, action: 'write', bytes: read.bytes });
    else if (read.kind === 'corrupt')
      skipped.push({
        path: file.path,
        reason: 'its stored earlier copy is damaged (it does not match its checksum), so it was not written back',
      });
    // Evicted between the plan and now: that file is left as it is, like any whose content is gone.
    else missing.push(file.path);
  }
  if (steps.length === 0 && (missing.length > 0 || skipped.length > 0)) return { kind: 'refused', skipped };
  const left = new Set([...missing, ...skipped.map((s) => s.path)]);
  for (const step of steps) on.applying.add(step.path);
  try {
    if (!(await on.applier.apply(steps))) return { kind: 'refused', skipped: [] };
  } finally {
    // The watcher reports our own edit a little later; until then it is not a change by anyone.
    setTimeout(() => steps.forEach((step) => on.applying.delete(step.path)), on.settleMs);
  }
  const applied = plan.files.filter((f) => !left.has(f.path));
  for (const file of applied) on.baseline.set(file.path, file.target);
  return { kind: 'applied', paths: applied.map((f) => f.path), unrestorable: [...plan.unrestorable, ...missing], skipped };
}

/** The planned files that must not be written or deleted as their path is on disk now, with why. */
export async function blockedOf(files: RestorePlan['files'], roots: readonly string[]): Promise<SkippedFile[]> {
  const blocked: SkippedFile[] = [];
  for (const file of files) {
    const action = file.target.kind === 'absent' ? 'delete' : 'write';
    const target = await inspectWriteTarget(file.path, roots, action).catch(
      (error: unknown): WriteTarget => ({
        kind: 'blocked',
        reason: `it could not be checked (${errorMessage(error)})`,
      }),
    );
    if (target.kind === 'blocked') blocked.push({ path: file.path, reason: target.reason });
  }
  return blocked;
}

export async function currentStates(files: ChangeFiles, content: ContentStore, paths: readonly string[]): Promise<Map<string, FileState>> {
  const states = new Map<string, FileState>();
  for (const path of paths) {
    states.set(path, await snapshotFile(files, content, path));
  }
  return states;
}
