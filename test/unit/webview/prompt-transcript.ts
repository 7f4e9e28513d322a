/** A transcript of `prompts` user prompts built with the real reducer (one entry each), and a chunk action. */
import type { TranscriptAction } from '../../../src/shared/actions';
import type { TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';

export function promptTranscript(prompts: number): TranscriptState {
  let state = initialState();
  for (let turn = 0; turn < prompts; turn++)
    state = reduce(state, { type: 'prompt_sent', turnId: `t${turn}`, content: [{ type: 'text', text: `prompt ${turn}` }] });
  return state;
}

export const chunk: TranscriptAction = {
  type: 'session_update',
  update: { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'hi' } },
};
