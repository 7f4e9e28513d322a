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

/**
 * Only http(s) leaves VS Code on a click: other schemes (file:, command:, vscode:) could act on the machine. Nor a
 * URL with a user name or password: `https://github.com@evil.example/` goes to evil.example while it reads as GitHub.
 */
export function isWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.username === '' && parsed.password === '';
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

/**
 * An agent's URL question as the card shows it and the click opens it: the URL as a browser reads it (WHATWG, the
 * parser `hostOf` uses). The agent's own text could be read two ways: `https://github.com\@evil.example/login` is
 * GitHub to a browser's parser (a backslash is a slash there) and evil.example to VS Code's `Uri.parse`, which opened
 * it; written out again it is `https://github.com/@evil.example/login` for both. A look-alike host shows as the
 * browser would go there, in punycode (`xn--…`). Text that does not parse is kept (it can never be opened).
 */
export function urlRequest(url: string, elicitationId: string): Extract<ElicitationRequest, { mode: 'url' }> {
  let shown = url;
  try {
    shown = new URL(url).href;
  } catch {
    // not a URL: shown as given, refused on the click (isWebUrl)
  }
  return { mode: 'url', url: shown, host: hostOf(shown), elicitationId };
}
