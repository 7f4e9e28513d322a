/**
 * Slash commands through the real host: the agent's `available_commands_update` reaches the chat's state (names,
 * descriptions, input hints), and a command goes to the agent as plain prompt text, as the spec says. The
 * completion list itself is driven in the browser by the end-to-end test.
 */
import * as assert from 'node:assert/strict';
import { echoedPrompt, turnEnded, useScriptedAgent, waitFor } from './helpers';

describe('slash commands in VS Code', function () {
  this.timeout(60_000);

  it('shows the commands the agent advertises, with their input hints', async () => {
    const client = await useScriptedAgent('echo');
    const state = await waitFor(client, (s) => s.commands.length > 0);
    assert.deepEqual(state.commands, [
      { name: 'review', description: 'Review the current changes', inputHint: 'what to focus on' },
      { name: 'plan', description: 'Make a plan before editing' },
    ]);
  });

  it('sends `/name input` to the agent as one text block', async () => {
    const client = await useScriptedAgent('echo');
    assert.deepEqual(await client.sendPrompt('/review the parser'), { accepted: true });
    const state = await waitFor(client, turnEnded);
    assert.deepEqual(echoedPrompt(state), [{ type: 'text', text: '/review the parser' }]);
  });
});
