/**
 * Prompts that wait for the agent: kept in the transcript state (so the chat shows them, and they are stored),
 * sent one at a time, in order, when the controller says the agent can take one. A prompt the agent then refuses
 * is not lost: it waits again, and the reason is shown.
 */
import type { Attachment } from '../shared/attachments';
import type { QueuedPrompt } from '../shared/model';
import type { TranscriptStore } from './transcript-store';

export type SendVerdict = { readonly accepted: true; readonly queued?: true } | { readonly accepted: false; readonly reason: string };

export class PromptQueue {
  private nextId = 1;

  constructor(
    private readonly store: TranscriptStore,
    /** Whether the agent can take a prompt now (ready, no turn running). */
    private readonly canSend: () => boolean,
    private readonly send: (text: string, attachments: readonly Attachment[]) => Promise<SendVerdict>,
  ) {}

  get pending(): readonly QueuedPrompt[] {
    return this.store.state.queued ?? [];
  }

  add(text: string, attachments: readonly Attachment[]): void {
    this.store.dispatch({ type: 'prompt_queued', prompt: { id: `queued-${this.nextId++}`, text, attachments } });
    this.drainSoon();
  }

  /** Takes a prompt out of the queue to send it another way (steering); undefined when it is gone already. */
  take(id: string): QueuedPrompt | undefined {
    const prompt = this.pending.find((queued) => queued.id === id);
    if (prompt) this.remove(id);
    return prompt;
  }

  remove(id: string): void {
    this.store.dispatch({ type: 'queued_prompt_removed', id });
  }

  /** After the current step (a turn's end being dispatched, a session opening): the next prompt, if it can go. */
  drainSoon(): void {
    setImmediate(() => this.drain());
  }

  private drain(): void {
    const next = this.pending[0];
    if (!next || !this.canSend()) return;
    this.remove(next.id);
    void this.send(next.text, next.attachments).then((verdict) => {
      if (verdict.accepted) return;
      // Not lost: it waits in the queue again (the next start or turn end retries it), and the reason is shown.
      this.store.dispatch({ type: 'prompt_queued', prompt: next });
      this.store.dispatch({ type: 'notice_added', severity: 'warning', title: 'A queued prompt was not sent', detail: verdict.reason });
    });
  }
}
