/** What every entry renderer implements, and the UI facts (not transcript state) they render with. */
import type { Entry, TerminalRecord } from '../../src/shared/model';
import type { WorkBudget } from '../markdown/markdown-stream';

export interface RenderContext {
  readonly expandedThoughts: ReadonlySet<string>;
  readonly expandedRaw: ReadonlySet<string>;
  /** Key of the entry still being written (the last entry of a running turn), if any. */
  readonly streamingKey: string | undefined;
  /** Permission requests answered from this view that the host has not confirmed yet: requestId -> optionId. */
  readonly answering: ReadonlyMap<string, string>;
  /** The agent's terminals, shown where tool calls embed them. */
  readonly terminals: Readonly<Record<string, TerminalRecord>>;
  /** The one notice whose action (restart, stop) still applies; older notices' buttons are disabled. */
  readonly liveNoticeKey?: string;
  /**
   * Characters of the streaming entry's text that the host holds for its next posts (a backlog: the host posts no
   * faster than the chat takes them), read when the entry is drawn: its drawing knows how far behind it is.
   */
  readonly streamHeldChars?: () => number;
}

export interface EntryView {
  readonly element: HTMLElement;
  /**
   * Brings the element up to date with `entry`; called when the entry or its UI facts changed, and again while
   * `hasPendingWork` says the budget of the frame ran out before it was done.
   */
  render(entry: Entry, context: RenderContext, budget: WorkBudget): void;
  readonly hasPendingWork?: boolean;
}
