/**
 * The entries of a `session/list` page, parsed one by one: an entry without a usable id or cwd is left out and
 * reported, and a malformed optional field (title, updatedAt) is dropped rather than the entry.
 */
import { z } from 'zod';

export interface ListedSession {
  readonly sessionId: string;
  readonly cwd: string;
  readonly title?: string;
  /** ISO 8601, as the agent sent it (not checked further: it is shown and sorted, never computed with). */
  readonly updatedAt?: string;
}

export const sessionInfo = z
  .object({
    sessionId: z.string().min(1),
    cwd: z.string(),
    title: z.string().nullish().catch(undefined),
    updatedAt: z.string().nullish().catch(undefined),
  })
  .loose();

export function parseListedSessions(raw: readonly unknown[], problems: string[]): ListedSession[] {
  const sessions: ListedSession[] = [];
  for (const item of raw) {
    const parsed = sessionInfo.safeParse(item);
    if (!parsed.success) {
      problems.push(`session/list: left out an entry that is not a session: ${JSON.stringify(item)?.slice(0, 200)}`);
      continue;
    }
    const { sessionId, cwd, title, updatedAt } = parsed.data;
    sessions.push({ sessionId, cwd, ...(title ? { title } : {}), ...(updatedAt ? { updatedAt } : {}) });
  }
  return sessions;
}
