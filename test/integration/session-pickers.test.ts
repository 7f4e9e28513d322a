/**
 * Mode and config pickers through the real host, from the palette commands (the header's pickers are clicked by
 * the end-to-end test): the choice reaches the agent (it reports what it holds), the chat's state follows the
 * agent's answer, an agent switching mode by itself is followed, and config options win over modes.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { entriesOf } from '../../src/shared/selectors';
import { modePicker, sessionPickers } from '../../src/shared/session-pickers';
import type { TranscriptState } from '../../src/shared/model';
import { textOf, turnEnded, useScriptedAgent, waitFor } from './helpers';
import type { AcpClientTestApi } from '../../src/api';

const optionValues = (state: TranscriptState): Record<string, string | boolean> =>
  Object.fromEntries(state.configOptions.map((option) => [option.id, option.currentValue]));

/** Sends a prompt to the `controls` scenario and returns the settings it reports holding. */
async function agentSettings(client: AcpClientTestApi, prompt = 'what are your settings?'): Promise<string> {
  const turns = entriesOf(client.transcript()).filter((entry) => entry.kind === 'turn_end').length;
  assert.deepEqual(await client.sendPrompt(prompt), { accepted: true });
  const state = await waitFor(
    client,
    (s) => turnEnded(s) && entriesOf(s).filter((entry) => entry.kind === 'turn_end').length === turns + 1,
  );
  const reply = entriesOf(state)
    .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
    .pop();
  return textOf(reply).replace(/^Settings: /, '');
}

describe('mode and config pickers in VS Code', function () {
  this.timeout(60_000);

  it('switches mode with session/set_mode and follows the agent switching mode itself', async () => {
    const client = await useScriptedAgent('controls', { ACP_SESSION_CONTROLS: 'modes' });
    const ready = client.transcript();
    assert.deepEqual(
      ready.modes?.available.map((mode) => mode.name),
      ['Ask', 'Code', 'Plan'],
    );
    assert.equal(ready.modes?.current, 'ask');
    await vscode.commands.executeCommand('acpClient.selectMode', 'plan');
    assert.equal(client.transcript().modes?.current, 'plan', 'the picker shows the new mode once the agent accepted it');
    assert.equal(await agentSettings(client), 'mode=plan model=fast verbose=false');
    assert.equal(await agentSettings(client, 'switch to code'), 'mode=code model=fast verbose=false');
    assert.equal(client.transcript().modes?.current, 'code', 'current_mode_update from the agent moved the picker');
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('acpClient.selectMode', 'yolo')),
      /"yolo" is not a value of Mode; it takes ask, code, plan/,
    );
  });

  it('sets config options (a select and a toggle) with session/set_config_option and shows the answer', async () => {
    const client = await useScriptedAgent('controls', { ACP_SESSION_CONTROLS: 'config' });
    assert.deepEqual(optionValues(client.transcript()), { model: 'fast', verbose: false });
    assert.equal(modePicker(client.transcript()), undefined, 'no modes, no mode picker');
    await vscode.commands.executeCommand('acpClient.changeSessionOption', 'model', 'deep');
    await vscode.commands.executeCommand('acpClient.changeSessionOption', 'verbose', true);
    assert.deepEqual(optionValues(client.transcript()), { model: 'deep', verbose: true });
    assert.equal(await agentSettings(client), 'mode=ask model=deep verbose=true');
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('acpClient.changeSessionOption', 'temperature', 'hot')),
      /no option "temperature"/,
    );
  });

  it('when the agent has modes and config options, the config options win: the mode is set as an option', async () => {
    const client = await useScriptedAgent('controls', { ACP_SESSION_CONTROLS: 'both' });
    const ready = client.transcript();
    assert.ok(ready.modes, 'the agent did list modes too');
    assert.deepEqual(
      sessionPickers(ready).map((picker) => `${picker.source}:${picker.id}`),
      ['config:mode', 'config:model', 'config:verbose'],
      'one mode picker, from the config options',
    );
    await vscode.commands.executeCommand('acpClient.selectMode', 'plan');
    assert.equal(optionValues(client.transcript())['mode'], 'plan', 'set through session/set_config_option: its answer moved the option');
    assert.equal(await agentSettings(client), 'mode=plan model=fast verbose=false');
    await agentSettings(client, 'switch to code');
    assert.equal(optionValues(client.transcript())['mode'], 'code', 'config_option_update from the agent moved the picker');
  });

  it('with nothing to pick, Select Mode says so instead of opening an empty list', async () => {
    await useScriptedAgent('echo');
    const picked = await Promise.race([
      Promise.resolve(vscode.commands.executeCommand('acpClient.selectMode')).then(() => 'settled'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 2_000)),
    ]);
    assert.equal(picked, 'settled', 'without modes it says so instead of opening an empty pick');
  });
});
