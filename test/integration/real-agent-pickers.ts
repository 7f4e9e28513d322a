/**
 * A real agent's session pickers (what the chat header renders, from src/shared/session-pickers.ts) and that a
 * choice reaches the agent: a mode that edits without asking writes at once (and the change card still shows the
 * file, the case of an agent writing on disk by itself), the asking mode brings the permission prompt back, and a
 * model picked is the model the next API request names.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { currentChoiceName, modePicker, sessionPickers } from '../../src/shared/session-pickers';
import { assertChangeShown, assertReviewShows, assertUndoRestores } from './real-agent-change-checks';
import type { RealAgentContext, RealAgentProfile } from './real-agent-suite';
import { runTurn } from './real-agent-turns';
import { clientWrites } from './wire-log';

const requestModel = (request: unknown): unknown =>
  typeof request === 'object' && request !== null && 'model' in request ? request.model : undefined;

export function describePickerTests(profile: RealAgentProfile, context: RealAgentContext): void {
  it('shows its modes and options in the pickers; a mode that does not ask writes at once, the asking mode asks again', async () => {
    const client = context.client();
    const pickers = sessionPickers(client.transcript());
    assert.deepEqual(
      pickers.map((picker) => `${picker.source}:${picker.id}`),
      profile.pickers,
    );
    const modes = modePicker(client.transcript());
    assert.ok(modes, 'a mode picker shows');
    assert.equal(modes.current, profile.modes.asks);
    if (profile.modeNames) {
      assert.equal(currentChoiceName(modes), profile.modeNames.asks, 'the picker shows the mode by its name');
      assert.ok(
        modes.choices.some(
          (choice) => choice.value === profile.modes.editsWithoutAsking && choice.name === profile.modeNames?.editsWithoutAsking,
        ),
        `the other mode by its name: ${JSON.stringify(modes.choices)}`,
      );
    }
    assert.ok(
      modes.choices.some((choice) => choice.value === profile.modes.editsWithoutAsking),
      `the mode picker offers ${profile.modes.editsWithoutAsking}: ${JSON.stringify(modes.choices)}`,
    );

    await vscode.commands.executeCommand('acpClient.selectMode', profile.modes.editsWithoutAsking);
    assert.equal(modePicker(client.transcript())?.current, profile.modes.editsWithoutAsking, 'the picker shows the mode the agent took');
    const unasked = context.file('unasked.txt');
    context.script(profile.write(unasked, 'written without asking\n'), { type: 'text', text: 'Mock wrote it unasked.' });
    // Any permission request would be rejected: the file lands only if the mode really does not ask.
    const turn = await runTurn(client, `Create ${path.basename(unasked)}`, 'reject');
    context.timings.push(`write without asking ${turn.ms} ms`);
    assert.deepEqual(turn.permissions, [], 'no permission asked in this mode');
    if (profile.writesOnDiskItself)
      assert.ok(!clientWrites(context.wire()).includes(unasked), `${profile.name} wrote on disk itself, not through fs/write_text_file`);
    const change = { path: unasked, change: 'created', added: 1, removed: 0, after: 'written without asking\n' } as const;
    await assertChangeShown(client, turn.turnId, change);
    await assertReviewShows(turn.turnId, change);
    await assertUndoRestores(client, turn.turnId, change);

    await vscode.commands.executeCommand('acpClient.selectMode', profile.modes.asks);
    assert.equal(modePicker(client.transcript())?.current, profile.modes.asks);
    const asked = context.file('asked-again.txt');
    context.script(profile.write(asked, 'must not be written\n'), { type: 'text', text: 'Mock accepts the refusal.' });
    const again = await runTurn(client, `Create ${path.basename(asked)}`, 'reject');
    assert.equal(again.permissions.length, 1, 'the permission prompt is back');
    assert.equal(existsSync(asked), false, 'and its rejection holds');
  });

  const other = profile.otherModel;
  if (other)
    it('the model picked in the model picker is the model the next API request names', async () => {
      const client = context.client();
      const model = sessionPickers(client.transcript()).find((picker) => picker.category === 'model');
      assert.ok(model, 'a model picker shows');
      const first = model.current;
      assert.ok(
        model.choices.some((choice) => choice.value === other.value),
        `it offers ${other.value}`,
      );
      await vscode.commands.executeCommand('acpClient.changeSessionOption', model.id, other.value);
      const picked = sessionPickers(client.transcript()).find((picker) => picker.id === model.id);
      assert.equal(picked?.current, other.value, 'the picker shows the model the agent took');
      context.script({ type: 'text', text: 'Mock answers as the second model.' });
      const turn = await runTurn(client, 'Which model are you?');
      assert.match(turn.agentText, /Mock answers as the second model\./);
      assert.equal(requestModel(context.mock().turnRequests().at(-1)), other.requestModel);
      await vscode.commands.executeCommand('acpClient.changeSessionOption', model.id, first);
    });
}
