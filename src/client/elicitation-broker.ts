/**
 * Answers `elicitation/create`. The question shows in the chat; the user's answer comes back from the webview,
 * which is not trusted: a form's values are checked again here and refused (with the errors) when they do not
 * fit, and a URL is opened only on the user's click and only when it is http(s). Each request is answered once:
 * by the user, by a cancelled turn, by the agent withdrawing it (`$/cancel_request`), or by the agent's exit.
 */
import type { CancellationSignal } from '../acp/rpc-boundary';
import { isWebUrl, type ElicitationRequest } from '../shared/elicitation-model';
import { checkForm, type ElicitationContent } from '../shared/elicitation-validate';
import type { ElicitationPorts } from './ports';

export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: ElicitationContent }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

export type UserElicitationAction = ElicitationAnswer['action'];

export interface ElicitationAsk {
  readonly requestId: string;
  readonly agentName: string;
  readonly message: string;
  readonly request: ElicitationRequest;
}

export type AnswerResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'not_pending' | 'not_openable' }
  | { readonly ok: false; readonly reason: 'invalid'; readonly errors: Readonly<Record<string, string>> };

interface Pending {
  readonly request: ElicitationRequest;
  readonly settle: (answer: ElicitationAnswer) => void;
}

export class ElicitationBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly ports: ElicitationPorts) {}

  /** Resolves with the answer to send; `agentToken` is the agent's cancellation of its own request. */
  request(ask: ElicitationAsk, agentToken: CancellationSignal): Promise<ElicitationAnswer> {
    return new Promise<ElicitationAnswer>((resolve) => {
      const settle = (answer: ElicitationAnswer): void => {
        if (!this.pending.has(ask.requestId)) return;
        this.pending.delete(ask.requestId);
        agentCancel.dispose();
        announcement.dispose();
        resolve(answer);
      };
      this.pending.set(ask.requestId, { request: ask.request, settle });
      const agentCancel = agentToken.onCancellationRequested(() => settle({ action: 'cancel' }));
      const announcement = this.ports.announce({ agentName: ask.agentName, message: ask.message });
    });
  }

  /** The user's answer from the chat. `values` (form accept only) are what the webview posted, unchecked. */
  async answer(requestId: string, action: UserElicitationAction, values: Readonly<Record<string, unknown>> = {}): Promise<AnswerResult> {
    const pending = this.pending.get(requestId);
    if (!pending) return { ok: false, reason: 'not_pending' };
    if (action !== 'accept') {
      pending.settle({ action });
      return { ok: true };
    }
    if (pending.request.mode === 'url') {
      if (!isWebUrl(pending.request.url)) return { ok: false, reason: 'not_openable' };
      pending.settle({ action: 'accept' });
      await this.ports.openExternal(pending.request.url);
      return { ok: true };
    }
    const checked = checkForm(pending.request.form, values);
    if (!checked.ok) return { ok: false, reason: 'invalid', errors: checked.errors };
    pending.settle({ action: 'accept', content: checked.content });
    return { ok: true };
  }

  /** A URL elicitation the agent says is done while still unanswered: the interaction it asked for happened. */
  completeIfPending(requestId: string): void {
    this.pending.get(requestId)?.settle({ action: 'accept' });
  }

  /** Cancel: every pending request is answered `cancel`. Returns the ids answered. */
  cancelAll(): string[] {
    const ids = [...this.pending.keys()];
    for (const id of ids) this.pending.get(id)?.settle({ action: 'cancel' });
    return ids;
  }

  get pendingCount(): number {
    return this.pending.size;
  }
}
