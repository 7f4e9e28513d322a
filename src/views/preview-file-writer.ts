/**
 * Writes the host's copy of the chat's preview (preview-file.ts) while the extension runs without holding the
 * extension host's thread on the disk. A synchronous write (open, write, close, rename) took that thread for up to
 * 120 ms at a time under a 50 MB terminal flood at the slow machine's speed (the extension host's CPU profile in
 * test/integration/host-floods.test.ts, `ACP_FLOOD_PROFILE`: 49 samples in writeFileSync, once a second while the
 * chat streamed), waiting on a disk the history's own writes kept busy, and every command the user gave waited too.
 *
 * Here the data goes through the thread pool into a temporary file; back on this thread it is renamed into place
 * (one call, so no newer write can be overtaken by an older one's rename still queued in the pool). One write at a
 * time: what comes meanwhile waits, and only the newest of what waited is written next. `finish` writes the newest
 * synchronously when anything is still unwritten, for deactivate, after which nothing asynchronous may run.
 */
import { renameSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { PREVIEW_WRITE_OPTIONS, previewFileSlots, writePreviewFile, type HostPreview } from './preview-file';

export class PreviewFileWriter {
  private writing = false;
  /** Asked for while a write was under way: the newest of those (null: none). */
  private waiting: HostPreview | undefined | null = null;
  /** The newest preview asked for, written or not. */
  private newest: HostPreview | undefined;
  private finished = false;

  constructor(
    private readonly dir: string,
    private readonly outcome: { readonly written: () => void; readonly failed: (error: unknown) => void },
  ) {}

  write(preview: HostPreview | undefined): void {
    if (this.finished) return;
    this.newest = preview;
    if (this.writing) this.waiting = preview;
    else this.start(preview);
  }

  /** Nothing is written after this; the newest is on disk when it returns. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.writing && this.waiting === null) return;
    this.waiting = null;
    const newest = this.newest;
    this.guarded(() => writePreviewFile(this.dir, newest));
  }

  private start(preview: HostPreview | undefined): void {
    if (!preview?.html) {
      // Removing is one quick call; made here, after any write asked for before it has been renamed into place.
      this.guarded(() => writePreviewFile(this.dir, undefined));
      return;
    }
    this.writing = true;
    // Its own temporary: the synchronous write in `finish` uses writePreviewFile's, and may run while this one is open.
    const { file, temporary } = previewFileSlots(this.dir, '.next');
    writeFile(temporary, JSON.stringify(preview), PREVIEW_WRITE_OPTIONS)
      .then(() => {
        // Finished meanwhile: the newest was written synchronously, and this one is older or the same.
        if (this.finished) rmSync(temporary, { force: true });
        else renameSync(temporary, file);
        this.outcome.written();
      })
      .catch((error: unknown) => {
        this.outcome.failed(error);
        try {
          rmSync(temporary, { force: true });
        } catch {
          // It stays: named after this process, there is one at most.
        }
      })
      .finally(() => {
        this.writing = false;
        const next = this.waiting;
        this.waiting = null;
        if (next !== null && !this.finished) this.start(next);
      });
  }

  private guarded(work: () => void): void {
    try {
      work();
      this.outcome.written();
    } catch (error) {
      this.outcome.failed(error);
    }
  }
}
