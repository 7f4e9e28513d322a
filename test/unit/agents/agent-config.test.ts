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
    assert.deepEqual(
      parsed.agents.map((a) => a.name),
      ['Good'],
    );
    assert.equal(parsed.problems.length, 2);
    assert.match(parsed.problems[0] ?? '', /Broken.*command/);
  });

  it('reads a per-agent protocolVersion written as 1, 2, "2" or "auto", and rejects others with a reason', () => {
    const { agents, problems } = parseAgentsSetting({
      One: { command: 'a', protocolVersion: 1 },
      Two: { command: 'b', protocolVersion: '2' },
      Auto: { command: 'c', protocolVersion: 'auto' },
      Unset: { command: 'd' },
      Bad: { command: 'e', protocolVersion: 3 },
    });
    assert.deepEqual(
      agents.map((agent) => [agent.name, agent.protocolVersion]),
      [
        ['One', 1],
        ['Two', 2],
        ['Auto', 'auto'],
        ['Unset', undefined],
      ],
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? '', /Bad.*protocolVersion/);
  });

  it('keeps apiKeyEnv when it names an environment variable, and skips the entry when it does not', () => {
    const { agents, problems } = parseAgentsSetting({
      Codex: { command: 'codex', apiKeyEnv: 'OPENAI_API_KEY' },
      Bad: { command: 'x', apiKeyEnv: 'no way' },
    });
    assert.deepEqual(agents, [{ name: 'Codex', command: 'codex', args: [], env: {}, apiKeyEnv: 'OPENAI_API_KEY' }]);
    assert.match(problems[0] ?? '', /Bad.*apiKeyEnv must be an environment variable name/);
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
