/**
 * Version negotiation in VS Code, driven by the settings a user edits: `acpClient.protocolVersion` (global) and
 * an agent's own `protocolVersion`. A v2-draft agent (official SDK, experimental v2 API) is spoken to in v2; a v1
 * agent offered v2 falls back to a fresh v1 process and still gets the client's fs and terminal capabilities.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { entriesOf } from '../../src/shared/selectors';
import { scriptedAgentPath } from '../support/repo-root';
import { textOf, turnEnded, useAgent, useScriptedAgent, waitFor } from './helpers';

const v2AgentPath = (): string => path.join(path.dirname(scriptedAgentPath()), 'v2-agent.mjs');
const setGlobalVersion = (value: 1 | 2 | 'auto' | undefined): Thenable<void> =>
  vscode.workspace.getConfiguration('acpClient').update('protocolVersion', value, vscode.ConfigurationTarget.Global);

describe('protocol versions in VS Code', function () {
  this.timeout(60_000);
  afterEach(() => setGlobalVersion(undefined));

  it('with `auto`, a v2 agent is spoken to in v2: upserts, the echoed prompt, and the turn ending on state_update idle', async () => {
    await setGlobalVersion('auto');
    const client = await useAgent('V2', { command: process.execPath, args: [v2AgentPath()] });
    const ready = client.transcript().agent;
    assert.deepEqual(ready.phase === 'ready' && ready.protocolVersion, 2);
    await client.sendPrompt('hello there');
    const state = await waitFor(client, turnEnded);
    const messages = entriesOf(state).filter((entry) => entry.kind === 'message');
    assert.deepEqual(
      messages.map((entry) => [entry.kind === 'message' && entry.role, textOf(entry)]),
      [
        ['user', 'hello there'],
        ['agent', 'v2 heard: hello there (and appended)'],
      ],
    );
    const end = entriesOf(state).find((entry) => entry.kind === 'turn_end');
    assert.deepEqual(end?.kind === 'turn_end' && end.outcome, { type: 'stopped', stopReason: 'max_tokens' });
  });

  it("an agent's own protocolVersion wins over the global setting", async () => {
    await setGlobalVersion(1);
    const client = await useAgent('V2', {
      command: process.execPath,
      args: [v2AgentPath()],
      env: { ACP_V2_ENDING: 'answer' },
      protocolVersion: 2,
    });
    const ready = client.transcript().agent;
    assert.deepEqual(ready.phase === 'ready' && ready.protocolVersion, 2);
    await client.sendPrompt('seed style');
    const end = entriesOf(await waitFor(client, turnEnded)).find((entry) => entry.kind === 'turn_end');
    assert.deepEqual(
      end?.kind === 'turn_end' && end.outcome,
      { type: 'stopped', stopReason: 'end_turn' },
      'seed 002: the answer carried the stop reason',
    );
  });

  it('a v1 agent offered v2 falls back to v1 and its turns use the fs and terminal capabilities', async () => {
    await setGlobalVersion(2);
    const client = await useScriptedAgent('terminal');
    const ready = client.transcript().agent;
    assert.deepEqual(ready.phase === 'ready' && ready.protocolVersion, 1);
    await client.sendPrompt('run it');
    const state = await waitFor(client, turnEnded);
    assert.match(
      entriesOf(state).map(textOf).join(''),
      /terminal report: .*"exitCode":3/,
      'the fresh v1 process was told it may use terminals',
    );
  });
});
