/** What is kept (and persisted) about the changes of each turn: states by hash, never content. */
import type { ChangeReview } from '../shared/model';
import type { FileState } from './file-state';

export interface FileChangeRecord {
  readonly path: string;
  readonly before: FileState;
  readonly after: FileState;
  /** `client`: written through our fs/write_text_file; `disk`: seen by the watcher. */
  readonly origin: 'client' | 'disk';
  readonly review: ChangeReview;
  /**
   * Seen on disk while another conversation's turn ran too, and named by neither agent: it may be the other
   * agent's change (it is kept in both, see concurrent-turns.ts).
   */
  readonly shared?: boolean;
}

export interface TurnChangeRecord {
  readonly turnId: string;
  readonly origin: 'turn' | 'restore';
  readonly files: readonly FileChangeRecord[];
  /** A restore's: the turns' files it rewound, back under review when the restore is undone. */
  readonly rewound?: readonly { readonly turnId: string; readonly path: string }[];
}

/** The text an agent's tool calls reported for a file (their `diff` content's newText), by absolute path. */
export type ReportedTexts = ReadonlyMap<string, string | undefined>;
