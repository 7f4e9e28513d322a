/**
 * Continuing a conversation's ACP session when its agent starts again (after a reload, an idle stop, a crash):
 * `session/resume` where the agent offers it (no replay), else `session/load` with the replay left out (the stored
 * transcript already shows it), else a fresh session and a note that the agent does not remember the old one.
 */
import type { TranscriptState } from '../shared/model';
import type { SessionOpening } from './session-opening';
import type { SessionSupport } from './agent-session';

/** The agent's session id this conversation had, if there is anything to continue and it was with `agentName`. */
export function sessionToContinue(state: TranscriptState, agentName: string): string | undefined {
  if (state.sessionId === undefined || state.entryCount === 0) return undefined;
  const agent = state.agent;
  return agent.phase !== 'none' && agent.agentName !== agentName ? undefined : state.sessionId;
}

export function continuingOpening(sessionId: string | undefined, support: SessionSupport): SessionOpening {
  if (sessionId === undefined) return { kind: 'new' };
  if (support.resume) return { kind: 'resume', sessionId };
  if (support.load) return { kind: 'load', sessionId, replay: 'suppress' };
  return { kind: 'new' };
}

export function cannotContinueNotice(agentName: string): { title: string; detail: string } {
  return {
    title: `${agentName} cannot continue the earlier session`,
    detail: `It offers neither session/resume nor session/load, so a fresh session was opened. The conversation above stays here, but ${agentName} does not remember it.`,
  };
}

export function continueFailedNotice(agentName: string, reason: string): { title: string; detail: string } {
  return {
    title: `${agentName} could not continue the earlier session`,
    detail: `${reason.replace(/\.?$/, '.')} A fresh session was opened: the conversation above stays here, but ${agentName} does not remember it.`,
  };
}
