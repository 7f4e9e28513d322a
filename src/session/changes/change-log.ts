/**
 * The change records of one conversation, persisted in workspace storage so review, undo and "Restore to here"
 * survive Reload Window. One small JSON file per conversation (states by hash; the content is in the store),
 * written aside and renamed so a crash leaves the previous version, never a torn one.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import type { TurnChangeRecord } from './change-records';

const state = z.union([
  z.object({ kind: z.literal('absent') }),
  z.object({ kind: z.literal('unknown') }),
  z.object({ kind: z.literal('file'), hash: z.string(), size: z.number(), stored: z.boolean(), binary: z.boolean() }),
]);
const logSchema = z.object({
  version: z.literal(1),
  turns: z.array(z.string()),
  records: z.array(
    z.object({
      turnId: z.string(),
      origin: z.enum(['turn', 'restore']),
      files: z.array(
        z.object({
          path: z.string(),
          before: state,
          after: state,
          origin: z.enum(['client', 'disk']),
          review: z.enum(['pending', 'kept', 'undone']),
          shared: z.boolean().optional(),
        }),
      ),
      rewound: z.array(z.object({ turnId: z.string(), path: z.string() })).optional(),
    }),
  ),
});

export interface StoredChanges {
  /** Every turn and restore in the order it ran (with or without changes): the checkpoints. */
  readonly turns: readonly string[];
  readonly records: readonly TurnChangeRecord[];
}

export class ChangeLog {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    conversationId: string,
  ) {
    // The id is the caller's (any string): hashed, so it is always a safe file name.
    this.file = path.join(dir, `${createHash('sha256').update(conversationId).digest('hex').slice(0, 32)}.json`);
  }

  private readonly file: string;

  async load(): Promise<StoredChanges> {
    try {
      const parsed = logSchema.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      return parsed.success ? parsed.data : { turns: [], records: [] };
    } catch {
      return { turns: [], records: [] };
    }
  }

  /** Saves are queued: the last one written is the newest state. */
  save(changes: StoredChanges): Promise<void> {
    const json = JSON.stringify({ version: 1, turns: changes.turns, records: changes.records });
    this.writing = this.writing.then(async () => {
      await mkdir(this.dir, { recursive: true });
      const temp = `${this.file}.tmp`;
      await writeFile(temp, json);
      await rename(temp, this.file);
    });
    return this.writing;
  }
}
