/**
 * Where the editor's MCP server asks the user before an action (rename, task, quick fix). The server serves one
 * agent process, and a permission card belongs to one conversation. Each conversation is offered the server with a
 * token of its own, so a call names its conversation: the question goes there if a turn of it is running. A call
 * with the process's token names none: it goes to the one conversation of the process running a turn. With none
 * running, or (unnamed) with more than one, nobody is asked and the agent gets a clear refusal.
 * The question shows as a tool call card of its own with the same permission buttons and dialog as
 * `session/request_permission`; the card ends with what the action did. The card is the client's own (`origin`):
 * the agent's updates cannot change it, and its id has a random part, so the agent cannot even name it.
 */
import { randomUUID } from 'node:crypto';
import { CancellationSource } from '../acp/rpc-boundary';
import type { ActionAsker, ActionOutcome, ActionQuestion, ActionVerdict } from '../editor-tools/action-ports';
import type { PermissionOption } from '../shared/model';
import type { SessionEndpoint } from './agent-requests';

export const ACTION_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

/** A session of the process, as the asker sees it: open, and whether a turn of it runs now. */
export type AskableEndpoint = Pick<SessionEndpoint, 'sessionId' | 'permissions' | 'onAction' | 'turnRunning' | 'editorCaller'> & {
  readonly files: Pick<SessionEndpoint['files'], 'claimWrites'>;
};

export function editorActionAsker(agentName: string, endpoints: () => Iterable<AskableEndpoint>): ActionAsker {
  let next = 1;
  return {
    async ask(question: ActionQuestion, signal: AbortSignal, conversation?: string): Promise<ActionVerdict> {
      const open = [...endpoints()].filter((endpoint) => endpoint.sessionId !== undefined);
      // The call named its conversation (its token): that one is asked, whatever the others do.
      const named = conversation === undefined ? undefined : open.find((endpoint) => endpoint.editorCaller === conversation);
      if (conversation !== undefined && !named)
        return { allowed: false, reason: `Refused: the conversation that made this call is no longer open. Nothing was changed.` };
      if (named && !named.turnRunning)
        return {
          allowed: false,
          reason: `Refused: ${question.tool} needs the user's permission, and this conversation has no turn running to ask it in. Nothing was changed.`,
        };
      const running = named ? [named] : open.filter((endpoint) => endpoint.turnRunning);
      if (running.length === 0)
        return {
          allowed: false,
          reason: `Refused: ${question.tool} needs the user's permission, and no turn of ${agentName} is running to ask it in. Nothing was changed.`,
        };
      const endpoint = running[0];
      if (running.length > 1 || endpoint === undefined)
        return {
          allowed: false,
          reason: `Refused: ${running.length} conversations of ${agentName} are running a turn and the call does not say which one made it, so the editor cannot ask the right one. Nothing was changed; try again when only one runs.`,
        };
      const id = next++;
      // Tool call ids share one namespace with the agent's: a counter would let the agent address the card
      // (`editor-run_task-1`) before or while the user reads it. Request ids are ours alone, never the agent's.
      const toolCallId = `editor-${question.tool}-${randomUUID()}`;
      const requestId = `editor-perm-${id}`;
      endpoint.onAction({
        type: 'session_update',
        origin: 'editor',
        update: {
          sessionUpdate: 'tool_call',
          toolCallId,
          title: question.title,
          kind: question.kind,
          status: 'pending',
          content: [{ type: 'content', content: { type: 'text', text: question.detail } }],
          locations: question.paths.map((path) => ({ path })),
        },
      });
      endpoint.onAction({
        type: 'permission_requested',
        requestId,
        toolCallId,
        toolCall: { title: question.title },
        options: ACTION_OPTIONS,
        origin: 'editor',
      });
      const withdrawn = new CancellationSource();
      const onAbort = (): void => withdrawn.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) withdrawn.cancel();
      const outcome = await endpoint.permissions
        .request({ requestId, agentName, toolTitle: question.title, paths: question.paths, options: ACTION_OPTIONS }, withdrawn.signal)
        .finally(() => {
          signal.removeEventListener('abort', onAbort);
          withdrawn.dispose();
        });
      endpoint.onAction({
        type: 'permission_resolved',
        requestId,
        outcome: outcome.outcome === 'selected' ? { optionId: outcome.optionId } : 'cancelled',
      });
      if (outcome.outcome === 'cancelled')
        return {
          allowed: false,
          reason: `Refused: the permission question for ${question.tool} was cancelled (the turn was cancelled or the call withdrawn). Nothing was changed.`,
        };
      if (outcome.optionId !== 'allow')
        return { allowed: false, reason: `Refused: the user rejected ${question.tool}. Nothing was changed; do not retry it unchanged.` };
      return {
        allowed: true,
        claim: (paths) => endpoint.files.claimWrites(paths),
        finished: (done: ActionOutcome) =>
          endpoint.onAction({
            type: 'session_update',
            origin: 'editor',
            update: {
              sessionUpdate: 'tool_call_update',
              toolCallId,
              status: done.ok ? 'completed' : 'failed',
              content: [
                { type: 'content', content: { type: 'text', text: question.detail } },
                { type: 'content', content: { type: 'text', text: done.text } },
              ],
            },
          }),
      };
    },
  };
}
