/**
 * One suite, run against each real agent that takes a model base URL (OpenCode, Qwen Code, Gemini CLI, GitHub
 * Copilot CLI): the
 * agent runs in the extension against a mock model API whose replies each test scripts, and each test checks
 * both ends: what reached the model (the mock's recorded requests) and what the user sees (the transcript, the
 * files on disk). All tests share one agent process and one session, as a user's conversation would.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import { entriesOf } from '../../src/shared/selectors';
import type { MockServer } from '../fixtures/mock-llm/http';
import type { ReplyScript, ScriptStep } from '../fixtures/mock-llm/script';
import type { AgentLaunch } from '../support/real-agents';
import { repoRoot } from '../support/repo-root';
import { useAgent, useScriptedAgent, waitFor, workspaceRoot } from './helpers';
import { assertChangeShown, assertReviewShows, assertUndoRestores } from './real-agent-change-checks';
import { describeShellTest, describeSignOutTest } from './real-agent-extras';
import { describePickerTests } from './real-agent-pickers';
import { agentTextSoFar, runTurn, type FinishedTurn } from './real-agent-turns';
import { describeWireTests } from './real-agent-wire';
import { readWire, wireTapPath, type WireMessage } from './wire-log';

export interface ScriptedMock extends MockServer {
  script: ReplyScript;
  /** The requests of the agent's own loop (the ones that took a scripted step), as parsed JSON. */
  turnRequests(): unknown[];
}

export interface RealAgentProfile {
  /** The agent's display name in `acpClient.agents`. */
  name: string;
  minNodeMajor: number;
  startMock(): Promise<ScriptedMock>;
  launch(mockUrl: string): AgentLaunch;
  /** The agent's own tool calls, with its tool names and argument names. */
  read(file: string): ScriptStep;
  write(file: string, content: string): ScriptStep;
  edit(file: string, oldText: string, newText: string): ScriptStep;
  /** The pickers its session offers, as `source:id` (see src/shared/session-pickers.ts), in the agent's order. */
  pickers: string[];
  /** One of its modes that asks before an edit (the one the suite starts in), and one that edits without asking. */
  modes: { asks: string; editsWithoutAsking: string };
  /** In the mode that does not ask, it writes files on disk itself rather than through `fs/write_text_file`. */
  writesOnDiskItself?: boolean;
  /** A second model the model picker offers, and the model name the agent then sends the API. */
  otherModel?: { value: string; requestModel: string };
  /** Requests outside ACP it sends in a turn: each must get "method not found" and the turns go on. */
  vendorRequests?: string[];
  /** It asks permission for a tool call it never announced with a `tool_call` update (Gemini CLI's edits). */
  asksForUnannouncedToolCalls?: boolean;
  /** One-time work before the timed start-up (Copilot CLI unpacks itself into a cache the run shares); returns its ms. */
  prepare?(): Promise<number>;
  /** Its shell tool running `command` (checked: asked, run, its output on the card). */
  shell?(command: string): ScriptStep;
  /** The names the mode picker shows for `modes` (when the ids are not names, e.g. Copilot CLI's URLs). */
  modeNames?: { asks: string; editsWithoutAsking: string };
  /** It offers ACP `logout`: sign-out is checked last, as it restarts the agent. */
  signsOut?: boolean;
}

/** What the suite's further test groups share with its own tests: one agent, one mock, one conversation. */
export interface RealAgentContext {
  client(): AcpClientTestApi;
  mock(): ScriptedMock;
  /** Everything that crossed the wire so far (the agent runs behind test/support/wire-tap.ts). */
  wire(): WireMessage[];
  /** A path in the workspace, removed after the suite. */
  file(name: string): string;
  script(...steps: ScriptStep[]): void;
  timings: string[];
}

const STARTUP_MS = 90_000;
const PREPARE_MS = 240_000;
const lastTurnRequest = (mock: ScriptedMock): string => JSON.stringify(mock.turnRequests().at(-1) ?? null);
const stopped = (stopReason: string): unknown => ({ type: 'stopped', stopReason });

export function describeRealAgent(profile: RealAgentProfile): void {
  describe(`a real agent: ${profile.name} over ACP against a scripted mock model`, function () {
    this.timeout(120_000);
    let mock: ScriptedMock | undefined;
    let launch: AgentLaunch | undefined;
    let client: AcpClientTestApi;
    let wireLog = '';
    const timings: string[] = [];
    const created: string[] = [];
    const slug = profile.name.replace(/\W+/g, '-').toLowerCase();
    const file = (name: string): string => {
      const full = path.join(workspaceRoot(), `${slug}-${name}`);
      created.push(full);
      return full;
    };
    const timed = (label: string, turn: FinishedTurn): FinishedTurn => {
      timings.push(`${label} ${turn.ms} ms`);
      return turn;
    };

    before(async function () {
      this.timeout(STARTUP_MS + PREPARE_MS);
      const nodeMajor = Number(process.versions.node.split('.')[0]);
      assert.ok(
        nodeMajor >= profile.minNodeMajor,
        `the extension host runs Node ${process.versions.node}; ${profile.name} needs Node ${profile.minNodeMajor}+`,
      );
      if (profile.prepare) console.log(`      ${profile.name} prepared (untimed) in ${await profile.prepare()} ms`);
      mock = await profile.startMock();
      launch = profile.launch(mock.url);
      wireLog = path.join(launch.home, 'wire.ndjson');
      // Created (and opened) well before their turns, so the change tracker's baseline holds them on a slow machine.
      writeFileSync(file('edit-me.txt'), 'alpha\nbeta\ngamma\n');
      await vscode.workspace.openTextDocument(file('edit-me.txt'));
      const started = Date.now();
      const args = [wireTapPath(), wireLog, launch.command, ...launch.args];
      client = await useAgent(profile.name, { command: process.execPath, args, env: launch.env }, STARTUP_MS);
      timings.push(`start-up ${Date.now() - started} ms`);
    });

    let failed = false;
    afterEach(function () {
      if (this.currentTest?.state === 'failed') failed = true;
    });

    after(async () => {
      console.log(`      ${profile.name} timings: ${timings.join(', ')}`);
      if (failed && existsSync(wireLog)) {
        // The HOME goes below; the wire is what explains a failure with a real agent, so it is kept in out/.
        const kept = path.join(repoRoot(), 'out', `wire-${slug}.ndjson`);
        copyFileSync(wireLog, kept);
        console.log(`      ${profile.name} wire kept in ${kept}`);
      }
      // Switching to the (cheap) scripted agent stops this one, so it no longer writes in the HOME removed below
      // nor spends the CPU the next suites need.
      await useScriptedAgent('echo');
      await mock?.close();
      for (const full of created) rmSync(full, { force: true });
      if (launch) rmSync(launch.home, { recursive: true, force: true });
    });

    const script = (...steps: ScriptStep[]): void => {
      mock?.script.clear();
      mock?.script.push(...steps);
    };
    const requireMock = (): ScriptedMock => {
      if (!mock) throw new Error('no mock');
      return mock;
    };

    it('answers a plain prompt: the prompt reaches the model and the streamed answer reaches the chat', async () => {
      script({ type: 'text', text: 'Mock answer: bananas are yellow.' });
      const turn = timed('plain', await runTurn(client, 'What colour are bananas?'));
      assert.deepEqual(turn.stop, stopped('end_turn'));
      assert.match(turn.agentText, /Mock answer: bananas are yellow\./);
      assert.match(lastTurnRequest(requireMock()), /What colour are bananas\?/);
    });

    it('reads a file with its read tool and sends the content to the model', async () => {
      const target = file('read-me.txt');
      writeFileSync(target, 'the secret word is pomegranate\n');
      script(profile.read(target), { type: 'text', text: 'Mock read it.' });
      const turn = timed('read', await runTurn(client, `Read ${path.basename(target)}`));
      assert.deepEqual(turn.stop, stopped('end_turn'));
      assert.ok(turn.toolCalls.length >= 1, 'a tool call card shows');
      assert.ok(
        turn.toolCalls.every((call) => call.status === 'completed'),
        `the read completed: ${JSON.stringify(turn.toolCalls)}`,
      );
      assert.match(lastTurnRequest(requireMock()), /pomegranate/, "the tool result with the file's content reached the model");
      assert.match(turn.agentText, /Mock read it\./);
    });

    it('writes a new file once allowed; the change card lists it (+1), Review shows it new, Undo removes it', async () => {
      const target = file('new-file.txt');
      script(profile.write(target, 'fresh from the mock\n'), { type: 'text', text: 'Mock wrote it.' });
      const turn = timed('write', await runTurn(client, `Create ${path.basename(target)}`, 'allow'));
      assert.deepEqual(turn.stop, stopped('end_turn'));
      assert.equal(readFileSync(target, 'utf8'), 'fresh from the mock\n');
      const card = turn.toolCalls.at(-1);
      assert.equal(card?.status, 'completed', `the write completed: ${JSON.stringify(turn.toolCalls)}`);
      assert.equal(card?.toolKind, 'edit');
      const change = { path: target, change: 'created', added: 1, removed: 0, after: 'fresh from the mock\n' } as const;
      await assertChangeShown(client, turn.turnId, change);
      await assertReviewShows(turn.turnId, change);
      await assertUndoRestores(client, turn.turnId, change);
    });

    it('edits an existing file once allowed; the change card shows +1 −1, Review shows old and new text, Undo puts the old back', async () => {
      const target = file('edit-me.txt');
      // Agents refuse to edit a file they have not read in the session (Qwen Code, OpenCode), as a model would read first.
      script(profile.read(target), profile.edit(target, 'beta', 'BETA'), { type: 'text', text: 'Mock edited it.' });
      const turn = timed('edit', await runTurn(client, `Edit ${path.basename(target)}`, 'allow'));
      assert.deepEqual(turn.stop, stopped('end_turn'));
      assert.equal(readFileSync(target, 'utf8'), 'alpha\nBETA\ngamma\n');
      assert.equal(turn.toolCalls.at(-1)?.status, 'completed', `the edit completed: ${JSON.stringify(turn.toolCalls)}`);
      const change = {
        path: target,
        change: 'modified',
        added: 1,
        removed: 1,
        before: 'alpha\nbeta\ngamma\n',
        after: 'alpha\nBETA\ngamma\n',
      } as const;
      await assertChangeShown(client, turn.turnId, change);
      await assertReviewShows(turn.turnId, change);
      await assertUndoRestores(client, turn.turnId, change);
    });

    it('asks permission in VS Code before a write, and a rejection leaves the disk alone', async () => {
      const target = file('rejected.txt');
      script(profile.write(target, 'must not be written\n'), { type: 'text', text: 'Mock accepts the refusal.' });
      const turn = timed('permission', await runTurn(client, `Create ${path.basename(target)}`, 'reject'));
      assert.equal(turn.permissions.length, 1, 'exactly one permission request');
      assert.ok(
        turn.permissions[0]?.offered.some((kind) => kind.startsWith('allow')) &&
          turn.permissions[0]?.offered.some((kind) => kind.startsWith('reject')),
        'it offers allow and reject',
      );
      const card = turn.toolCalls.at(-1);
      assert.ok(
        card?.permissionOutcome !== undefined && card.permissionOutcome !== 'cancelled',
        `the card shows the answer: ${JSON.stringify(card)}`,
      );
      assert.ok(card && ['rejected', 'failed', 'cancelled'].includes(card.status), `the card is not shown as done: ${card?.status}`);
      assert.equal(existsSync(target), false, 'nothing was written');
    });

    it('cancels mid-stream: the partial answer stays, the turn ends cancelled, and the next turn works', async () => {
      script({ type: 'hang', text: 'Mock starts a long answer' });
      const started = Date.now();
      assert.deepEqual(await client.sendPrompt('Tell me a long story'), { accepted: true });
      await waitFor(client, (state) => agentTextSoFar(state).includes('Mock starts a long answer'), 60_000);
      await vscode.commands.executeCommand('acpClient.cancelTurn');
      const ended = await waitFor(client, (state) => state.turn.phase === 'idle', 30_000);
      timings.push(`cancel ${Date.now() - started} ms`);
      const end = entriesOf(ended)
        .filter((entry) => entry.kind === 'turn_end')
        .pop();
      assert.deepEqual(end?.kind === 'turn_end' ? end.outcome : undefined, stopped('cancelled'));
      assert.match(agentTextSoFar(ended), /Mock starts a long answer/, 'the partial answer stays');
      script({ type: 'text', text: 'Mock is back.' });
      const after = await runTurn(client, 'Are you still there?');
      assert.deepEqual(after.stop, stopped('end_turn'));
      assert.match(after.agentText, /Mock is back\./);
    });

    it('remembers the first turn in the second: the model gets the earlier messages', async () => {
      script({ type: 'text', text: 'Mock notes the codeword kiwi.' });
      await runTurn(client, 'The codeword is kiwi.');
      script({ type: 'text', text: 'Mock recalls.' });
      const second = timed('second turn', await runTurn(client, 'What was the codeword?'));
      assert.match(second.agentText, /Mock recalls\./);
      const request = lastTurnRequest(requireMock());
      assert.match(request, /The codeword is kiwi\./, 'the first prompt is in the history sent to the model');
      assert.match(request, /Mock notes the codeword kiwi\./, 'so is the first answer');
      assert.match(request, /What was the codeword\?/);
    });

    const context: RealAgentContext = {
      client: () => client,
      mock: requireMock,
      wire: () => readWire(wireLog),
      file,
      script,
      timings,
    };
    describeShellTest(profile, context);
    describeWireTests(profile, context);
    describePickerTests(profile, context);
    describeSignOutTest(profile, context);
  });
}
