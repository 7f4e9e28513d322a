/**
 * Serves `elicitation/create` and `elicitation/complete` for one agent connection: turns a request into the
 * transcript's form or URL card of the session it names, waits for that session's broker, and records how it
 * ended. A request for a session this connection did not open is refused before anything is shown.
 */
import { RpcError, RpcErrorCode } from '../acp/rpc-boundary';
import type { AcpConnection } from '../acp/connection';
import type { LogSink } from '../acp/log-sink';
import type { CreateElicitationParams } from '../acp/schemas/elicitation';
import type { ElicitationAnswer, ElicitationBroker } from '../client/elicitation-broker';
import type { TranscriptAction } from '../shared/actions';
import { formModelFrom } from '../shared/elicitation-form';
import { urlRequest, type ElicitationOutcome, type ElicitationRequest } from '../shared/elicitation-model';

type ElicitationAction = Extract<TranscriptAction, { type: 'elicitation_requested' | 'elicitation_resolved' }>;

/** Where one session's elicitations go: its broker and its transcript. */
export interface ElicitationRoute {
  readonly broker: ElicitationBroker;
  readonly onAction: (action: ElicitationAction) => void;
}

export interface ElicitationHandlerHooks {
  readonly agentName: string;
  readonly log: LogSink;
  /** The route of a session open on the connection; undefined for any other. */
  readonly route: (sessionId: string) => ElicitationRoute | undefined;
  readonly refuse: (sessionId: string) => Error;
}

const OUTCOMES: Readonly<Record<ElicitationAnswer['action'], ElicitationOutcome>> = {
  accept: 'accepted',
  decline: 'declined',
  cancel: 'cancelled',
};

export class ElicitationHandler {
  private nextId = 1;
  /** URL elicitations by the agent's elicitationId, until the agent completes them. */
  private readonly urlRequests = new Map<string, { readonly requestId: string; readonly route: ElicitationRoute }>();

  constructor(
    connection: AcpConnection,
    private readonly hooks: ElicitationHandlerHooks,
  ) {
    connection.onCreateElicitation(async (params, token) => {
      const route = hooks.route(params.sessionId);
      if (!route) throw hooks.refuse(params.sessionId);
      const requestId = `elicit-${this.nextId++}`;
      const request = this.requestOf(params);
      const toolCallId = params.toolCallId ?? undefined;
      route.onAction({ type: 'elicitation_requested', requestId, message: params.message, request, ...(toolCallId ? { toolCallId } : {}) });
      if (request.mode === 'url') this.urlRequests.set(request.elicitationId, { requestId, route });
      const answer = await route.broker.request({ requestId, agentName: hooks.agentName, message: params.message, request }, token);
      route.onAction({ type: 'elicitation_resolved', requestId, outcome: OUTCOMES[answer.action] });
      if (answer.action !== 'accept' && request.mode === 'url') this.urlRequests.delete(request.elicitationId);
      return answer;
    });
    connection.onCompleteElicitation((elicitationId) => this.complete(elicitationId));
  }

  private requestOf(params: CreateElicitationParams): ElicitationRequest {
    if (params.mode === 'url') return urlRequest(params.url, params.elicitationId);
    const form = formModelFrom(params.requestedSchema);
    const missing = form.unsupported.filter((name) => params.requestedSchema.required?.includes(name));
    // A required field the form cannot draw could never be filled in: say so rather than show a form that cannot be sent.
    if (missing.length > 0) throw new RpcError(RpcErrorCode.InvalidParams, `Unsupported required properties: ${missing.join(', ')}`);
    if (form.unsupported.length > 0)
      this.hooks.log.warn(`elicitation/create: left out unsupported properties ${form.unsupported.join(', ')}`);
    return { mode: 'form', form };
  }

  private complete(elicitationId: string): void {
    const pending = this.urlRequests.get(elicitationId);
    if (pending === undefined) {
      this.hooks.log.warn(`Ignored elicitation/complete for unknown elicitation ${elicitationId}`);
      return;
    }
    this.urlRequests.delete(elicitationId);
    pending.route.onAction({ type: 'elicitation_resolved', requestId: pending.requestId, outcome: 'completed' });
    pending.route.broker.completeIfPending(pending.requestId);
  }
}
