import * as assert from 'node:assert/strict';
import { agentNameLabel, installingAgentLabel } from '../../../webview/header/agent-name';

describe('the header agent name', () => {
  it('names the agent, or the one the chat would start', () => {
    assert.deepEqual(agentNameLabel({ phase: 'ready', agentName: 'Claude Code' }, 'Other'), { text: 'Claude Code', title: 'Claude Code' });
    assert.deepEqual(agentNameLabel({ phase: 'none' }, 'Gemini'), { text: 'Gemini', title: 'Gemini' });
    assert.deepEqual(agentNameLabel({ phase: 'none' }, undefined), { text: 'No agent', title: 'No agent' });
  });

  it('attack: an agent name with a right-to-left override or invisible characters shows them as <U+XXXX>', () => {
    // "Safe\u202Eedoc" reads as "Safecode"; a zero-width space makes two names look alike.
    const shown = { text: 'Safe<U+202E>edoc<U+200B>', title: 'Safe<U+202E>edoc<U+200B>' };
    assert.deepEqual(agentNameLabel({ phase: 'ready', agentName: 'Safe\u202Eedoc\u200B' }, undefined), shown);
    assert.deepEqual(agentNameLabel({ phase: 'exited', agentName: 'Safe\u202Eedoc\u200B', exitCode: 1 }, undefined), shown);
    assert.deepEqual(agentNameLabel({ phase: 'none' }, 'Safe\u202Eedoc\u200B'), shown);
  });

  it('attack: a registry agent being installed shows bidi controls in its name and version as <U+XXXX>', () => {
    const label = installingAgentLabel({ agentName: 'Good \u2066Agent\u2069', version: '1.0\u202E', receivedBytes: 0 });
    assert.deepEqual(label, {
      text: 'Good <U+2066>Agent<U+2069>',
      title: 'Good <U+2066>Agent<U+2069> 1.0<U+202E>',
      statusTitle: 'Installing Good <U+2066>Agent<U+2069> 1.0<U+202E> from the ACP registry',
    });
  });
});
