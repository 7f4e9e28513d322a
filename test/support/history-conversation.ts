/**
 * A deterministic stream of transcript actions shaped like a real session (agent start, prompts, streamed answers
 * with v1 chunks, tool calls with updates, turn ends), so history tests, the crash writer and the bench can
 * replay the exact sequence a writer recorded and compare states.
 */
import type { TranscriptAction } from '../../src/shared/actions';
import type { TranscriptState } from '../../src/shared/model';
import { initialState, reduce } from '../../src/shared/reducer';
import type { SessionRecorder } from '../../src/history/session-recorder';
import type { TranscriptStore } from '../../src/session/transcript-store';

export const CHUNKS_PER_ANSWER = 12;

export function* conversation(agentName = 'Scripted'): Generator<TranscriptAction> {
  yield { type: 'agent_status', status: { phase: 'ready', agentName, protocolVersion: 1 } };
  yield {
    type: 'session_started',
    sessionId: 'agent-session-1',
    promptCapabilities: { image: false, audio: false, embeddedContext: true },
  };
  for (let turn = 0; ; turn++) yield* turnActions(turn);
}

function* turnActions(turn: number): Generator<TranscriptAction> {
  const turnId = `turn-${turn}`;
  yield { type: 'prompt_sent', turnId, content: [{ type: 'text', text: `question ${turn}: what does module ${turn} do?` }] };
  for (let chunk = 0; chunk < CHUNKS_PER_ANSWER / 2; chunk++) {
    yield { type: 'session_update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `word${chunk} ` } } };
  }
  yield {
    type: 'session_update',
    update: { sessionUpdate: 'tool_call', toolCallId: `t${turn}`, title: `Read module-${turn}.ts`, kind: 'read', status: 'pending' },
  };
  yield {
    type: 'session_update',
    update: {
      sessionUpdate: 'tool_call_update',
      toolCallId: `t${turn}`,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: `export const value${turn} = ${turn};` } }],
    },
  };
  for (let chunk = CHUNKS_PER_ANSWER / 2; chunk < CHUNKS_PER_ANSWER; chunk++) {
    yield { type: 'session_update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `word${chunk} ` } } };
  }
  if (turn === 0) yield { type: 'session_update', update: { sessionUpdate: 'session_info_update', title: 'Modules explained' } };
  yield { type: 'turn_ended', turnId, stopReason: 'end_turn' };
}

export function takeActions(count: number, agentName?: string): TranscriptAction[] {
  const actions: TranscriptAction[] = [];
  for (const action of conversation(agentName)) {
    if (actions.length === count) break;
    actions.push(action);
  }
  return actions;
}

/** The state after the first `count` actions of the conversation, reduced directly (no storage involved). */
export function stateAfter(count: number): TranscriptState {
  return takeActions(count).reduce(reduce, initialState());
}

/** Dispatches actions `from` .. `from + count` of the conversation with the recorder listening, as the host will. */
export function recordInto(store: TranscriptStore, recorder: SessionRecorder, count: number, from = 0): void {
  const subscription = store.subscribe((action, state) => recorder.record(action, state));
  for (const action of takeActions(from + count).slice(from)) store.dispatch(action);
  subscription.dispose();
}
