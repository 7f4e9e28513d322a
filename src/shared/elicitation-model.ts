/** An agent's question to the user (`elicitation/create`) as the transcript keeps it. Plain JSON. */
import type { FormModel } from './elicitation-form';

/**
 * accepted: answered with content (form) or the URL was opened (url); declined / cancelled: answered so;
 * completed: the agent said a URL elicitation is done (`elicitation/complete`).
 */
export type ElicitationOutcome = 'accepted' | 'declined' | 'cancelled' | 'completed';

export type ElicitationRequest =
  | { readonly mode: 'form'; readonly form: FormModel }
  /** `host` is shown emphasized so a look-alike link is easier to spot; `elicitationId` is the agent's. */
  | { readonly mode: 'url'; readonly url: string; readonly host: string; readonly elicitationId: string };

export interface ElicitationView {
  /** Our id for the JSON-RPC request, used to answer it from the webview. */
  readonly requestId: string;
  readonly message: string;
  readonly request: ElicitationRequest;
  /** Absent while the agent waits for an answer. */
  readonly outcome?: ElicitationOutcome;
}

/** An elicitation not scoped to a tool call the transcript shows: its own entry (`elicitation:<requestId>`). */
export interface ElicitationEntry {
  readonly kind: 'elicitation';
  readonly key: string;
  readonly turnId?: string;
  readonly elicitation: ElicitationView;
}

/** Only http(s) leaves VS Code on a click: other schemes (file:, command:, vscode:) could act on the machine. */
export function isWebUrl(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The host to emphasize, or '' when the URL does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
