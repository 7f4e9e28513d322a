/**
 * The fault matrix on the host path (real agent processes, real framing and validation, in-memory editor ports):
 * every fault of test/support/fault-cases.ts (shared with the integration suite), then the invariants that must hold after any of them — the earlier transcript is
 * intact, nothing outside the workspace was read or written (a canary beside it keeps content, mtime and atime,
 * and its secret is nowhere in the transcript), a healthy agent started next answers, and no process of the
 * faulty agent (or anything it started) is left.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AgentConfig } from '../../../src/agents/agent-config';
import { entriesOf } from '../../../src/shared/selectors';
import { HarnessSuite } from '../../support/harness-suite';
import type { HostHarness } from '../../support/host-harness';
import { eventually, processesMarked } from '../../support/processes';
import { scriptedAgentPath } from '../../support/repo-root';
import { agentText, FAULTS, turnEnds, type FaultChat } from '../../support/fault-cases';
import { reportOf, runFault } from '../../support/fault-run';

const SECRET = 'CANARY-SECRET-do-not-read';

/** One name for the healthy and the faulty agent: the faulty one continues the conversation's session. */
function rawAgent(fault: string, env: Record<string, string>): AgentConfig {
  return {
    name: 'Raw',
    command: process.execPath,
    args: [path.join(path.dirname(scriptedAgentPath()), 'raw-agent.mjs')],
    env: { ACP_RAW_FAULT: fault, ...env },
  };
}

/** The chat as the fault runner drives it, on the host path: the controller's calls are the chat's buttons. */
function hostChat(harness: HostHarness, agent: AgentConfig): FaultChat {
  return {
    state: () => harness.store.state,
    waitFor: (predicate, timeoutMs) => harness.waitFor(predicate, timeoutMs),
    startAgent: () => harness.controller.start(agent),
    sendPrompt: (text) => harness.controller.sendPrompt(text),
    cancelTurn: () => harness.controller.cancelTurn(),
    stopAgent: () => harness.controller.stopUnresponsive(),
    retryStart: () => void harness.controller.restart(),
    // The scripted dialog answers with the fault's `permissionAnswer` (see the harness options) when it is shown.
    answerPermission: () => Promise.resolve(),
  };
}

async function earlierTurn(harness: HostHarness, env: Record<string, string>): Promise<string> {
  await harness.controller.start(rawAgent('none', env));
  assert.deepEqual(await harness.controller.sendPrompt('earlier words'), { accepted: true });
  const state = await harness.waitFor((s) => s.turn.phase === 'idle' && turnEnds(s).length === 1);
  assert.match(agentText(state), /echo: earlier words/);
  return JSON.stringify(entriesOf(state));
}

describe('fault matrix: nothing wedges, nothing leaks, nothing spoofs', function () {
  this.timeout(40_000);
  const suite = new HarnessSuite('acp-faults-');
  let canaryDir = '';
  let canary = '';
  const OLD = new Date('2001-01-01T00:00:00Z');

  beforeEach(() => {
    canaryDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-canary-')));
    canary = path.join(canaryDir, 'canary.txt');
    writeFileSync(canary, SECRET);
    // atime older than mtime-or-equal: under relatime any read would move it.
    utimesSync(canary, OLD, OLD);
    writeFileSync(path.join(suite.root, 'inside.txt'), 'inside');
  });
  afterEach(() => rmSync(canaryDir, { recursive: true, force: true }));

  for (const fault of FAULTS) {
    it(`${fault.fault}: ${fault.sees}`, async () => {
      const harness = suite.start({
        startupTimeoutMs: 1000,
        cancelGraceMs: 300,
        ...(fault.permissionAnswer ? { permissionAnswer: fault.permissionAnswer } : {}),
      });
      const marker = randomUUID();
      const earlier = await earlierTurn(harness, { ACP_TEST_MARK: randomUUID() });

      const chat = hostChat(harness, rawAgent(fault.fault, { ACP_TEST_MARK: marker, ACP_RAW_OUTSIDE: canary }));
      const state = await runFault(chat, fault);
      await fault.check({ chat, state, report: reportOf(state) });
      fault.hostCheck?.(harness);

      // The earlier transcript is intact.
      const entriesNow = JSON.stringify(entriesOf(harness.store.state));
      assert.ok(entriesNow.startsWith(earlier.slice(0, -1)), 'the earlier turn is unchanged at the head of the transcript');
      // Nothing outside the workspace was read or written.
      // stat before reading it ourselves: our own read would move its atime.
      const seen = statSync(canary);
      assert.equal(seen.mtimeMs, OLD.getTime(), 'canary not written');
      assert.equal(seen.atimeMs, OLD.getTime(), 'canary not read');
      assert.equal(readFileSync(canary, 'utf8'), SECRET);
      assert.ok(!entriesNow.includes(SECRET), 'the canary text is nowhere in the transcript');
      // A healthy agent started next answers.
      await harness.controller.start(rawAgent('none', { ACP_TEST_MARK: randomUUID() }));
      const before = turnEnds(harness.store.state).length;
      assert.deepEqual(await harness.controller.sendPrompt('after the fault'), { accepted: true });
      const after = await harness.waitFor((s) => s.turn.phase === 'idle' && turnEnds(s).length === before + 1);
      assert.match(agentText(after), /echo: after the fault/);
      // No process of the faulty agent, nor anything it started, is left.
      await eventually(
        () => processesMarked(marker).length === 0,
        `faulty agent processes left: ${processesMarked(marker).join(',')}`,
        5000,
      );
    });
  }
});
