/**
 * The part of the change engine's file port that only reads the disk (contents, file times, a folder's files), the
 * same on VS Code and on a plain folder: the two ports differ in what they list, exclude and hold open.
 */
import { realpathSync } from 'node:fs';
import type { ReadNow, SnapshotRead } from './change-ports';
import { bornAt, filesInFolder, modifiedAt, readForSnapshot, readSmallNow, statusChangedAt } from './snapshot-read';

/** A new folder's files read at once (see ChangeTracker.diskCreated); later ones wait for their own events. */
const MAX_FOLDER_FILES = 1_000;

export abstract class DiskReads {
  private realRootsOf: { readonly roots: string; readonly real: readonly string[] } | undefined;

  abstract excluded(absolutePath: string): boolean;
  abstract roots(): readonly string[];

  /** A file is read only where it really is inside a workspace folder: no link on its way leads out (client/opened-inside.ts). */
  read(absolutePath: string, maxBytes: number): Promise<SnapshotRead> {
    return readForSnapshot(absolutePath, maxBytes, this.realRoots());
  }

  readSmallNow(absolutePath: string, maxBytes: number): ReadNow | undefined {
    return readSmallNow(absolutePath, maxBytes, this.realRoots());
  }

  /** The workspace folders' real paths, resolved again when the folders change (a missing one is left out). */
  private realRoots(): readonly string[] {
    const roots = this.roots();
    const key = roots.join('\0');
    if (this.realRootsOf?.roots !== key) {
      const real = roots.flatMap((root) => {
        try {
          return [realpathSync.native(root)];
        } catch {
          return [];
        }
      });
      this.realRootsOf = { roots: key, real };
    }
    return this.realRootsOf.real;
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
}
