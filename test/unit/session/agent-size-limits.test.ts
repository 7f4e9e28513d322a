/** Sizes an agent controls, through the whole host path with a real scripted agent process (official SDK). */
import * as assert from 'node:assert/strict';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { MAX_TOOL_CALLS_PER_TURN } from '../../../src/shared/limits';
import type { Entry, TranscriptState } from '../../../src/shared/model';
import { TOOL_CONTENT_TRUNCATED_NOTE } from '../../../src/shared/reducer-limits';
import { entriesOf } from '../../../src/shared/selectors';

const ended = (state: TranscriptState): boolean =>
  state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end');

async function turn(harness: HostHarness, command: object): Promise<Entry[]> {
  await harness.controller.start(scriptedAgent('limits'));
  await harness.controller.sendPrompt(JSON.stringify(command));
  return entriesOf(await harness.waitFor(ended, 30_000));
}

describe('sizes an agent controls (real agent process)', function () {
  this.timeout(40_000);
  const suite = new HarnessSuite('acp-size-limits-');

  it('a 2 MB streamed answer arrives whole', async () => {
    const entries = await turn(suite.start(), { message: 2 * 1024 * 1024 });
    const answer = entries.find((entry) => entry.kind === 'message' && entry.role === 'agent');
    const text = answer?.kind === 'message' ? answer.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : '';
    assert.ok(text.length === 2 * 1024 * 1024 && /^m+$/.test(text), `got ${text.length} characters`);
  });

  it(`a runaway turn shows ${MAX_TOOL_CALLS_PER_TURN} tool calls and a notice, and still ends`, async () => {
    const entries = await turn(suite.start(), { toolCalls: MAX_TOOL_CALLS_PER_TURN + 20 });
    assert.equal(entries.filter((entry) => entry.kind === 'tool_call').length, MAX_TOOL_CALLS_PER_TURN);
    assert.deepEqual(
      entries.filter((entry) => entry.kind === 'notice').map((entry) => entry.kind === 'notice' && entry.title),
      [`The agent started more than 1,000 tool calls in this turn`],
    );
  });

  it('tool output over the limit is cut with a note', async () => {
    const entries = await turn(suite.start(), { toolContent: 2_500_000 });
    const call = entries.find((entry) => entry.kind === 'tool_call');
    const last = call?.kind === 'tool_call' ? call.content.at(-1) : undefined;
    assert.ok(last?.type === 'content' && last.content.type === 'text' && last.content.text === TOOL_CONTENT_TRUNCATED_NOTE);
  });
});
