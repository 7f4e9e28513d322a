/**
 * The workspace as it was when nothing was running: every file's last known content, so a change the agent makes
 * on disk directly has a "before". Seeded once by a walk of the workspace (off the update path), then kept current:
 * a turn's end makes its after-states the baseline, and changes outside turns (the user, git) are re-read.
 */
import { ABSENT, UNKNOWN, type FileState } from './file-state';
import type { ChangeFiles } from './change-ports';
import type { ContentStore } from './content-store';
import { snapshotFile } from './snapshot-read';

/** Reads in flight while seeding: enough to keep the disk busy, few enough not to starve the agent's own reads. */
const SEED_CONCURRENCY = 16;

export class Baseline {
  private readonly states = new Map<string, FileState>();
  private seeded = false;
  private seeding: Promise<void> | undefined;

  constructor(
    private readonly files: ChangeFiles,
    private readonly store: ContentStore,
  ) {}

  get isSeeded(): boolean {
    return this.seeded;
  }

  get size(): number {
    return this.states.size;
  }

  seed(): Promise<void> {
    this.seeding ??= this.walk();
    return this.seeding;
  }

  /** The file's state before the change now seen; unknown when the walk has not reached it yet. */
  stateOf(absolutePath: string): FileState {
    return this.states.get(absolutePath) ?? (this.seeded ? ABSENT : UNKNOWN);
  }

  set(absolutePath: string, state: FileState): void {
    if (state.kind === 'absent') this.states.delete(absolutePath);
    else this.states.set(absolutePath, state);
  }

  /** Reads the file as it is now into the store and the baseline (a change nobody attributes to the agent). */
  async refresh(absolutePath: string): Promise<FileState> {
    const state = await snapshotFile(this.files, this.store, absolutePath);
    this.set(absolutePath, state);
    return state;
  }

  private async walk(): Promise<void> {
    const paths = [...(await this.files.list())];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < paths.length) {
        const target = paths[next++]!;
        // Something already told us this file's state (a read, an edit): that is newer than the walk.
        if (this.states.has(target)) continue;
        const state = await snapshotFile(this.files, this.store, target).catch(() => ABSENT);
        if (state.kind === 'absent' || this.states.has(target)) continue;
        this.states.set(target, state);
      }
    };
    await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
    this.seeded = true;
  }
}
