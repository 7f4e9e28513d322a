/**
 * Keeps the host's copy of the shown conversation's preview (preview-file.ts) up to date: as its transcript changes
 * (at most once a second, the last change always written: src/shared/preview-keeper.ts), when another conversation
 * is shown, and once more when disposed (the extension deactivates: the window reloads or closes).
 */
import type { Conversations } from '../conversations/conversations';
import type { LogSink } from '../acp/log-sink';
import { PreviewKeeper } from '../shared/preview-keeper';
import { writePreviewFile } from './preview-file';

export class PreviewFileKeeper {
  private readonly keeper: PreviewKeeper;
  private watched: { dispose(): void } | undefined;
  private readonly switched: { dispose(): void };
  private failed = false;

  constructor(chats: Conversations, dir: string, log: LogSink) {
    this.keeper = new PreviewKeeper(
      () => {
        const shown = chats.shown;
        return shown && { conversationId: shown.id, state: shown.store.state };
      },
      (preview) => {
        try {
          writePreviewFile(dir, preview);
          this.failed = false;
        } catch (error) {
          // Once per run of failures: the page's own saved preview still stands in.
          if (!this.failed) log.warn(`The chat's preview could not be kept for the next reload: ${String(error)}`);
          this.failed = true;
        }
      },
    );
    const watch = (): void => {
      this.watched?.dispose();
      this.watched = chats.shown?.store.subscribe(() => this.keeper.changed());
      this.keeper.changed();
    };
    this.switched = chats.onDidSwitch(watch);
    watch();
  }

  /** Writes a change not written yet, and stops. */
  dispose(): void {
    this.switched.dispose();
    this.watched?.dispose();
    this.watched = undefined;
    this.keeper.saveNow();
  }
}
