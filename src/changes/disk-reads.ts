/**
 * The part of the change engine's file port that only reads the disk (contents, file times, a folder's files), the
 * same on VS Code and on a plain folder: the two ports differ in what they list, exclude and hold open.
 */
import type { ReadNow, SnapshotRead } from './change-ports';
import { bornAt, filesInFolder, modifiedAt, readForSnapshot, readSmallNow, statusChangedAt } from './snapshot-read';

/** A new folder's files read at once (see ChangeTracker.diskCreated); later ones wait for their own events. */
const MAX_FOLDER_FILES = 1_000;

export abstract class DiskReads {
  abstract excluded(absolutePath: string): boolean;

  read(absolutePath: string, maxBytes: number): Promise<SnapshotRead> {
    return readForSnapshot(absolutePath, maxBytes);
  }

  readSmallNow(absolutePath: string, maxBytes: number): ReadNow | undefined {
    return readSmallNow(absolutePath, maxBytes);
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
