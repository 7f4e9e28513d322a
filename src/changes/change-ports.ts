/** What the change engine needs from the editor and the disk, as narrow ports (VS Code adapters in src/editor). */

/** The bytes, or (past the cap) the size and sha256; undefined when the file is missing or not a file (a link). */
export type SnapshotRead = Uint8Array | { readonly size: number; readonly hash: string } | undefined;

/** A file read on the event loop, with its modification time right after the read. */
export interface ReadNow {
  readonly read: SnapshotRead;
  readonly modifiedAfter: number | undefined;
}

export interface ChangeFiles {
  /** Workspace files (absolute paths) worth a snapshot: never `.git/`, never what `files.watcherExclude` excludes. */
  list(): Promise<readonly string[]>;
  /** The bytes on disk (past `maxBytes`: only size and hash), or undefined when missing (see snapshot-read.ts). */
  read(absolutePath: string, maxBytes: number): Promise<SnapshotRead>;
  /** `read` on the event loop, with the modification time just after; undefined for a file larger than `maxBytes`. */
  readSmallNow(absolutePath: string, maxBytes: number): ReadNow | undefined;
  /** The file's last modification time (ms since the epoch), or undefined when missing. */
  modifiedAt(absolutePath: string): Promise<number | undefined>;
  /** When the file last changed in any way (its ctime), or undefined when missing. */
  statusChangedAt(absolutePath: string): Promise<number | undefined>;
  /** When the file was made (its birth time), or undefined when missing or not recorded by the filesystem. */
  bornAt(absolutePath: string): Promise<number | undefined>;
  /** The files in a folder and its subfolders (none when not a folder), bounded, never what `excluded` names. */
  filesIn(absolutePath: string): Promise<readonly string[]>;
  /** The files directly in a folder, bounded, never what `excluded` names. */
  filesDirectlyIn(absolutePath: string): Promise<readonly string[]>;
  /** Open editors' text by absolute path: the "before" of a file the agent changes on disk while it is open. */
  openTexts(): ReadonlyMap<string, string>;
  /** Whether a path is one the engine must never capture (`.git/`, watcher excludes). */
  excluded(absolutePath: string): boolean;
  /** The workspace folders: undo and restore write inside them only (write-target.ts). */
  roots(): readonly string[];
  /** Whether an editor holds unsaved edits of the file: undo and restore never discard them without asking. */
  unsaved(absolutePath: string): boolean;
}

/** One step of an undo or a restore; applied through the editor so its undo stack and open documents stay right. */
export type RestoreStep =
  | { readonly path: string; readonly action: 'write'; readonly bytes: Uint8Array }
  | { readonly path: string; readonly action: 'delete' };

export interface ChangeApplier {
  /** Applies all steps as one edit; resolves false when the editor refused it. */
  apply(steps: readonly RestoreStep[]): Promise<boolean>;
}
