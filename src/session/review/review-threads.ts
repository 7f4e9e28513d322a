/**
 * The review comments the user wrote on agents' changes, by conversation: what they say, where they point
 * (comment-anchor.ts) and whether they were sent to the agent. Kept in workspace storage through a port, so they
 * survive Reload Window; a stored value that does not parse is set aside with a reason, never half-read.
 */
import { z } from 'zod';
import type { CommentAnchor } from './comment-anchor';

export interface ReviewComment {
  readonly id: string;
  readonly body: string;
}

export interface ReviewThread {
  readonly id: string;
  readonly conversationId: string;
  /** The file's absolute path. */
  readonly path: string;
  readonly anchor: CommentAnchor;
  readonly comments: readonly ReviewComment[];
  /** `sent`: quoted in a prompt to the agent (shown as a resolved thread). */
  readonly status: 'open' | 'sent';
  /** The lines it pointed at are no longer in the file: it keeps its last place and says so. */
  readonly outdated: boolean;
}

/** Where the threads are kept (the extension's workspace state). */
export interface ReviewThreadStorage {
  load(): unknown;
  save(threads: readonly ReviewThread[]): PromiseLike<void>;
}

/** Bounds on what is kept: a comment is the user's text, but storage is not a place for megabytes. */
export const MAX_COMMENT_CHARS = 20_000;
const MAX_THREADS = 1_000;
const MAX_ANCHOR_LINES = 400;

const storedThreads = z.array(
  z.object({
    id: z.string().max(100),
    conversationId: z.string().max(200),
    path: z.string().max(4096),
    anchor: z.object({
      startLine: z.number().int().min(1),
      endLine: z.number().int().min(1),
      lines: z.array(z.string()).max(MAX_ANCHOR_LINES),
    }),
    comments: z.array(z.object({ id: z.string().max(100), body: z.string().max(MAX_COMMENT_CHARS) })).max(200),
    status: z.enum(['open', 'sent']),
    outdated: z.boolean(),
  }),
);

export class ReviewThreads {
  private threads: ReviewThread[];
  private readonly listeners = new Set<() => void>();
  private nextId = Date.now();
  /** Why the stored threads could not be read, if they could not. */
  readonly problem: string | undefined;

  constructor(private readonly storage: ReviewThreadStorage) {
    const stored = storage.load();
    const parsed = stored === undefined ? { success: true as const, data: [] } : storedThreads.safeParse(stored);
    this.threads = parsed.success ? parsed.data : [];
    this.problem = parsed.success
      ? undefined
      : `Stored review comments could not be read and were set aside: ${parsed.error.issues[0]?.message}`;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  all(): readonly ReviewThread[] {
    return this.threads;
  }

  get(id: string): ReviewThread | undefined {
    return this.threads.find((t) => t.id === id);
  }

  /** The threads not yet sent, in the order they are quoted: by file, then by line. */
  open(conversationId: string): ReviewThread[] {
    return this.threads
      .filter((t) => t.conversationId === conversationId && t.status === 'open' && t.comments.length > 0)
      .sort((a, b) => a.path.localeCompare(b.path) || a.anchor.startLine - b.anchor.startLine);
  }

  /** Open threads by conversation id (the chat's "N review comments"). */
  openCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const t of this.threads)
      if (t.status === 'open' && t.comments.length > 0) counts[t.conversationId] = (counts[t.conversationId] ?? 0) + 1;
    return counts;
  }

  async create(conversationId: string, path: string, anchor: CommentAnchor, body: string): Promise<ReviewThread> {
    if (this.threads.length >= MAX_THREADS) throw new Error(`At most ${MAX_THREADS} review comments are kept: send or delete some first.`);
    const thread: ReviewThread = {
      id: this.newId(),
      conversationId,
      path,
      anchor: { ...anchor, lines: anchor.lines.slice(0, MAX_ANCHOR_LINES) },
      comments: [{ id: this.newId(), body: bounded(body) }],
      status: 'open',
      outdated: false,
    };
    this.threads.push(thread);
    await this.changed();
    return thread;
  }

  async reply(threadId: string, body: string): Promise<void> {
    // A reply to a sent thread opens it again: there is something new to send.
    await this.update(threadId, (t) => ({ ...t, status: 'open', comments: [...t.comments, { id: this.newId(), body: bounded(body) }] }));
  }

  async edit(threadId: string, commentId: string, body: string): Promise<void> {
    await this.update(threadId, (t) => ({
      ...t,
      comments: t.comments.map((c) => (c.id === commentId ? { ...c, body: bounded(body) } : c)),
    }));
  }

  /** Deletes one comment; a thread left without comments goes with it. */
  async deleteComment(threadId: string, commentId: string): Promise<void> {
    await this.update(threadId, (t) => ({ ...t, comments: t.comments.filter((c) => c.id !== commentId) }));
    this.threads = this.threads.filter((t) => t.comments.length > 0);
    await this.changed();
  }

  async deleteThread(threadId: string): Promise<void> {
    this.threads = this.threads.filter((t) => t.id !== threadId);
    await this.changed();
  }

  async markSent(threadIds: readonly string[]): Promise<void> {
    const ids = new Set(threadIds);
    this.threads = this.threads.map((t) => (ids.has(t.id) ? { ...t, status: 'sent' } : t));
    await this.changed();
  }

  /** The file changed: the thread's new place, or outdated where its lines are gone. */
  async placed(threadId: string, anchor: CommentAnchor, outdated: boolean): Promise<void> {
    const thread = this.get(threadId);
    if (
      !thread ||
      (thread.outdated === outdated && thread.anchor.startLine === anchor.startLine && thread.anchor.endLine === anchor.endLine)
    )
      return;
    await this.update(threadId, (t) => ({ ...t, anchor, outdated }));
  }

  private async update(threadId: string, change: (thread: ReviewThread) => ReviewThread): Promise<void> {
    this.threads = this.threads.map((t) => (t.id === threadId ? change(t) : t));
    await this.changed();
  }

  private async changed(): Promise<void> {
    await this.storage.save(this.threads);
    for (const listener of [...this.listeners]) listener();
  }

  private newId(): string {
    return (this.nextId++).toString(36);
  }
}

function bounded(body: string): string {
  return body.length > MAX_COMMENT_CHARS ? body.slice(0, MAX_COMMENT_CHARS) : body;
}
