/** The change engine's ports on a plain folder (unit tests and the benchmark): the disk only, no editor. */
import { readdir, rm, mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ChangeApplier, ChangeFiles, RestoreStep, SnapshotRead } from '../../src/changes/change-ports';
import { bornAt, filesInFolder, modifiedAt, readForSnapshot, statusChangedAt } from '../../src/changes/snapshot-read';

const MAX_FOLDER_FILES = 1_000;

export class DiskChangeFiles implements ChangeFiles {
  readonly open = new Map<string, string>();

  constructor(private readonly root: string) {}

  async list(): Promise<readonly string[]> {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (this.excluded(full)) continue;
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) out.push(full);
      }
    };
    await walk(this.root);
    return out;
  }

  read(absolutePath: string, maxBytes: number): Promise<SnapshotRead> {
    return readForSnapshot(absolutePath, maxBytes);
  }

  modifiedAt(absolutePath: string): Promise<number | undefined> {
    return modifiedAt(absolutePath);
  }

  statusChangedAt(absolutePath: string): Promise<number | undefined> {
    return statusChangedAt(absolutePath);
  }

  bornAt(absolutePath: string): Promise<number | undefined> {
    return bornAt(absolutePath);
  }

  filesIn(absolutePath: string): Promise<readonly string[]> {
    return filesInFolder(absolutePath, MAX_FOLDER_FILES, (full) => this.excluded(full));
  }

  filesDirectlyIn(absolutePath: string): Promise<readonly string[]> {
    return filesInFolder(absolutePath, MAX_FOLDER_FILES, (full) => this.excluded(full), false);
  }

  openTexts(): ReadonlyMap<string, string> {
    return this.open;
  }

  excluded(absolutePath: string): boolean {
    return absolutePath.split(path.sep).includes('.git');
  }

  roots(): readonly string[] {
    return [this.root];
  }

  /** Paths a test says an editor holds unsaved edits of. */
  readonly dirty = new Set<string>();

  unsaved(absolutePath: string): boolean {
    return this.dirty.has(absolutePath);
  }
}

export class DiskApplier implements ChangeApplier {
  applied: RestoreStep[][] = [];

  async apply(steps: readonly RestoreStep[]): Promise<boolean> {
    this.applied.push([...steps]);
    for (const step of steps) {
      if (step.action === 'delete') await rm(step.path, { force: true });
      else {
        await mkdir(path.dirname(step.path), { recursive: true });
        await writeFile(step.path, step.bytes);
      }
    }
    return true;
  }
}
