/**
 * Keeps the host's copy of the shown conversation's preview (preview-file.ts) up to date: as its transcript changes
 * (at most once a second, the last change always written: src/shared/preview-keeper.ts), when another conversation
 * is shown, and once more when disposed (the extension deactivates: the window reloads or closes). Drawn as the
 * page's HTML here (preview-html.ts, loaded once, off the activation path), so the next window only reads it.
 * Written off the extension host's thread while it runs, on it as the extension goes (preview-file-writer.ts).
 */
import type { Conversations } from '../conversations/conversations';
import type { LogSink } from '../acp/log-sink';
import { PreviewKeeper } from '../shared/preview-keeper';
import type { TranscriptPreview } from '../shared/saved-preview';
import type { HostPreview } from './preview-file';
import { PreviewFileWriter } from './preview-file-writer';

export class PreviewFileKeeper {
  private readonly keeper: PreviewKeeper;
  private readonly writer: PreviewFileWriter;
  private watched: { dispose(): void } | undefined;
  private readonly switched: { dispose(): void };
  private failed = false;
  private draw: ((preview: TranscriptPreview) => string) | undefined;
  /** A preview that came before the drawing code had loaded (null: none waiting). */
  private waiting: TranscriptPreview | undefined | null = null;
  /** Settles once the drawing code is loaded (tests wait on it). */
  readonly drawing: Promise<void>;

  constructor(
    chats: Conversations,
    dir: string,
    private readonly log: LogSink,
  ) {
    this.writer = new PreviewFileWriter(dir, { written: () => (this.failed = false), failed: (error) => this.failedWith(error) });
    this.drawing = import('./preview-html').then(
      ({ previewHtml }) => {
        this.draw = previewHtml;
        if (this.waiting !== null) this.write(this.waiting);
        this.waiting = null;
      },
      (error: unknown) => log.warn(`The chat's preview will not be kept for the next reload: ${String(error)}`),
    );
    this.keeper = new PreviewKeeper(
      () => {
        const shown = chats.shown;
        return shown && { conversationId: shown.id, state: shown.store.state };
      },
      (preview) => (this.draw ? this.write(preview) : void (this.waiting = preview)),
    );
    const watch = (): void => {
      this.watched?.dispose();
      this.watched = chats.shown?.store.subscribe(() => this.keeper.changed());
      this.keeper.changed();
    };
    this.switched = chats.onDidSwitch(watch);
    watch();
  }

  private write(preview: TranscriptPreview | undefined): void {
    let drawn: HostPreview | undefined;
    try {
      drawn = preview && this.draw && { conversationId: preview.conversationId, html: this.draw(preview) };
    } catch (error) {
      return this.failedWith(error);
    }
    this.writer.write(drawn);
  }

  /** Once per run of failures: the page's own saved preview still stands in. */
  private failedWith(error: unknown): void {
    if (!this.failed) this.log.warn(`The chat's preview could not be kept for the next reload: ${String(error)}`);
    this.failed = true;
  }

  /** Writes a change not written yet, and stops: the newest preview is on disk when this returns. */
  dispose(): void {
    this.switched.dispose();
    this.watched?.dispose();
    this.watched = undefined;
    this.keeper.saveNow();
    this.writer.finish();
  }
}
