/**
 * A stored transcript describes the moment it was written: an agent ready, perhaps a turn running and a
 * permission asked. None of that is live after a reload. These actions say so in the transcript itself (and so in
 * its history), leaving everything the user saw in place.
 */
import type { TranscriptAction } from '../shared/actions';
import type { TranscriptState } from '../shared/model';

export const INTERRUPTED = 'Interrupted: VS Code closed or reloaded while this turn ran.';

export function restoredActions(state: TranscriptState): TranscriptAction[] {
  const actions: TranscriptAction[] = [];
  if (state.turn.phase !== 'idle') actions.push({ type: 'turn_failed', turnId: state.turn.turnId, message: INTERRUPTED });
  const agent = state.agent;
  if (agent.phase !== 'none' && agent.phase !== 'stopped')
    actions.push({ type: 'agent_status', status: { phase: 'stopped', agentName: agent.agentName } });
  return actions;
}
