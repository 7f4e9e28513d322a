import * as assert from 'node:assert/strict';
import { parseAgentsSetting, pickDefaultAgent } from '../../../src/agents/agent-config';

describe('acpClient.agents setting', () => {
  it('accepts the Zed agent_servers shape', () => {
    const parsed = parseAgentsSetting({
      'Claude Code': { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'], env: { IS_SANDBOX: '1' } },
      Gemini: { command: 'gemini', args: ['--experimental-acp'] },
    });
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.agents, [
      { name: 'Claude Code', command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'], env: { IS_SANDBOX: '1' } },
      { name: 'Gemini', command: 'gemini', args: ['--experimental-acp'], env: {} },
    ]);
  });

  it('skips a broken entry with a reason and keeps the others', () => {
    const parsed = parseAgentsSetting({ Broken: { args: ['x'] }, Empty: { command: '' }, Good: { command: 'goose', args: ['acp'] } });
    assert.deepEqual(parsed.agents.map((a) => a.name), ['Good']);
    assert.equal(parsed.problems.length, 2);
    assert.match(parsed.problems[0] ?? '', /Broken.*command/);
  });

  it('reports a setting that is not an object', () => {
    assert.equal(parseAgentsSetting(['npx']).problems.length, 1);
    assert.deepEqual(parseAgentsSetting(undefined), { agents: [], problems: [] });
  });

  it('picks the named default, else the only agent, else none', () => {
    const { agents } = parseAgentsSetting({ A: { command: 'a' }, B: { command: 'b' } });
    assert.equal(pickDefaultAgent(agents, 'B')?.name, 'B');
    assert.equal(pickDefaultAgent(agents, 'missing'), undefined);
    assert.equal(pickDefaultAgent(agents.slice(0, 1), undefined)?.name, 'A');
  });
});
