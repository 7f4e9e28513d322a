/**
 * Terminals through the whole host path: a real scripted agent asks us to run a command, shows it in a tool
 * call, waits, reads the output, kills and releases. Checks what the agent receives (spec) and what the
 * transcript keeps for the user (output after release, exit status, the card that shows it).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { entriesOf } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';

interface TerminalReport {
  exitCode: number | null;
  signal: string | null;
  truncated: boolean;
  output: string;
}

const ended = (state: TranscriptState): boolean =>
  state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end');

function agentText(state: TranscriptState): string {
  return entriesOf(state)
    .map((entry) =>
      entry.kind === 'message' && entry.role === 'agent'
        ? entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
        : '',
    )
    .join('');
}

function report(state: TranscriptState): TerminalReport {
  const match = /terminal report: (.*)$/s.exec(agentText(state));
  assert.ok(match?.[1], `the agent reported its terminal: ${agentText(state)}`);
  return JSON.parse(match[1]) as TerminalReport;
}

describe('terminals run for the agent', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-terminal-');
  let harness: HostHarness | undefined;

  async function runTurn(prompt: string): Promise<TranscriptState> {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('terminal'));
    assert.deepEqual(await harness.controller.sendPrompt(prompt), { accepted: true });
    return harness.waitFor(ended);
  }

  it('runs the command with its args and env, and the agent gets its whole output and exit code', async () => {
    const state = await runTurn('run it');
    const got = report(state);
    assert.equal(got.exitCode, 3);
    assert.equal(got.signal, null);
    assert.equal(got.truncated, false);
    for (let line = 1; line <= 5; line++)
      assert.ok(got.output.includes(`line ${line} héllo wörld ✓ from-agent\n`), `line ${line} in ${JSON.stringify(got.output)}`);
    assert.ok(got.output.includes('warning on stderr\n'), 'stderr is part of the output');
  });

  it('keeps the output on screen after release, with the exit status, linked to the tool call that shows it', async () => {
    const state = await runTurn('run it');
    const records = Object.values(state.terminals);
    assert.equal(records.length, 1);
    const record = records[0]!;
    assert.equal(record.released, true);
    assert.deepEqual(record.exit, { exitCode: 3, signal: null });
    assert.match(record.commandLine, /^\S*node -e '[\s\S]*' once$/, 'the command line as typed, arguments quoted');
    assert.deepEqual(record.toolCallIds, ['terminal-1']);
    assert.equal(record.output, report(state).output, 'the chat shows what the agent read');
    const card = entriesOf(state).find((entry) => entry.kind === 'tool_call');
    assert.ok(card?.kind === 'tool_call');
    assert.deepEqual(card.content, [{ type: 'terminal', terminalId: record.terminalId }]);
    assert.equal(card.status, 'failed', 'exit code 3 failed the call');
  });

  it('honours outputByteLimit by dropping the start, at a character boundary', async () => {
    const state = await runTurn('run it limit:50');
    const got = report(state);
    assert.equal(got.truncated, true);
    assert.ok(Buffer.byteLength(got.output) <= 50, `at most 50 bytes, got ${Buffer.byteLength(got.output)}`);
    assert.ok(!got.output.includes('\uFFFD'), 'no broken character');
    assert.ok(got.output.endsWith('line 5 héllo wörld ✓ from-agent\n'), 'the newest output is kept');
  });

  it('kill ends the whole command, which reports a signal, and the transcript shows how it ended', async () => {
    const state = await runTurn('run it kill');
    const got = report(state);
    assert.equal(got.exitCode, null);
    assert.equal(got.signal, 'SIGKILL');
    assert.deepEqual(Object.values(state.terminals)[0]?.exit, { exitCode: null, signal: 'SIGKILL' });
  });

  it('refuses a cwd outside the workspace with an error the agent sees, and runs nothing', async () => {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-outside-')));
    try {
      const state = await runTurn(`run it cwd:${outside}`);
      assert.match(agentText(state), /^refused: .*outside/);
      assert.deepEqual(state.terminals, {});
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
