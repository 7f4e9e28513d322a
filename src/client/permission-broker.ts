/**
 * Answers `session/request_permission`. The request shows in two places, a VS Code dialog and the tool call's
 * card in the chat; whichever answers first is the answer sent. Cancelling the turn, or the agent withdrawing
 * the request (`$/cancel_request`), answers `cancelled` and closes the dialog.
 */
import { CancellationSource, type CancellationSignal } from '../acp/rpc-boundary';
import type { PermissionOption } from '../shared/model';
import type { PermissionPrompt } from './ports';

export type PermissionOutcome = { readonly outcome: 'selected'; readonly optionId: string } | { readonly outcome: 'cancelled' };

export interface PermissionAsk {
  readonly requestId: string;
  readonly agentName: string;
  readonly toolTitle: string;
  readonly paths: readonly string[];
  readonly options: readonly PermissionOption[];
}

interface Pending {
  readonly options: readonly PermissionOption[];
  readonly settle: (outcome: PermissionOutcome) => void;
}

export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly prompt: PermissionPrompt) {}

  /** Resolves with the first answer; `agentToken` is the agent's cancellation of its own request. */
  request(ask: PermissionAsk, agentToken: CancellationSignal): Promise<PermissionOutcome> {
    const dialogClose = new CancellationSource();
    return new Promise<PermissionOutcome>((resolve) => {
      const settle = (outcome: PermissionOutcome): void => {
        if (!this.pending.has(ask.requestId)) return;
        this.pending.delete(ask.requestId);
        agentCancel.dispose();
        dialogClose.cancel();
        dialogClose.dispose();
        resolve(outcome);
      };
      this.pending.set(ask.requestId, { options: ask.options, settle });
      const agentCancel = agentToken.onCancellationRequested(() => settle({ outcome: 'cancelled' }));
      void this.prompt
        .ask({ agentName: ask.agentName, toolTitle: ask.toolTitle, paths: ask.paths, options: ask.options }, dialogClose.signal)
        .then(
          // undefined: the dialog was closed without a choice; the card still offers the options.
          (optionId) => optionId !== undefined && settle({ outcome: 'selected', optionId }),
          () => undefined,
        );
    });
  }

  /** An answer from the chat card. Returns false when the request is no longer pending or the option unknown. */
  answer(requestId: string, optionId: string): boolean {
    const pending = this.pending.get(requestId);
    if (!pending || !pending.options.some((option) => option.optionId === optionId)) return false;
    pending.settle({ outcome: 'selected', optionId });
    return true;
  }

  /** Cancel: every pending request is answered `cancelled`. Returns the ids answered. */
  cancelAll(): string[] {
    const ids = [...this.pending.keys()];
    for (const id of ids) this.pending.get(id)?.settle({ outcome: 'cancelled' });
    return ids;
  }

  get pendingCount(): number {
    return this.pending.size;
  }
}
