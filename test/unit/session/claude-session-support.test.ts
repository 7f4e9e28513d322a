/**
 * The real Claude Code ACP agent (a devDependency), offline against the mock Messages API: what it advertises
 * for its own sessions, as AgentSession reads it; a conversation it lists; and that conversation loaded in a
 * new agent process with its replay shown, then left out.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AgentConfig } from '../../../src/agents/agent-config';
import type { AgentAction } from '../../../src/session/agent-session';
import { startMockAnthropic, type MockAnthropic } from '../../fixtures/mock-anthropic/server';
import { startAgentSession } from '../../support/agent-session-harness';
import { claudeAgentBin, claudeAgentEnv } from '../../support/claude-agent';

const PROMPT = 'remember the tide';

/** The text of the user and agent message chunks, in order. */
function messages(actions: readonly AgentAction[]): string[] {
  const texts: string[] = [];
  for (const action of actions) {
    if (action.type !== 'session_update') continue;
    const { update } = action;
    if ((update.sessionUpdate === 'user_message_chunk' || update.sessionUpdate === 'agent_message_chunk') && update.content.type === 'text')
      texts.push(`${update.sessionUpdate === 'user_message_chunk' ? 'user' : 'agent'}: ${update.content.text}`);
  }
  return texts;
}

describe('claude-agent-acp’s own sessions', function () {
  this.timeout(60_000);
  let mock: MockAnthropic;
  let home: string;
  let project: string;
  let claude: AgentConfig;
  let sessionId: string;
  before(async () => {
    mock = await startMockAnthropic();
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;
    project = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-claude-project-')));
    claude = { name: 'Claude', command: process.execPath, args: [claudeAgentBin()], env: agentEnv.env };
  });
  after(async () => {
    await mock.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  it('advertises load, list, resume, fork, close and delete and additionalDirectories (not set_title), and lists the conversation it had', async () => {
    const harness = startAgentSession(claude, project);
    try {
      const started = await harness.session.start();
      sessionId = started.sessionId;
      assert.deepEqual(harness.session.sessionSupport, {
        load: true,
        list: true,
        resume: true,
        fork: true,
        close: true,
        delete: true,
        setTitle: false,
        additionalDirectories: true,
      });
      await harness.session.prompt([{ type: 'text', text: PROMPT }]);
      const page = await harness.session.listSessions();
      const listed = page.sessions.find((session) => session.sessionId === sessionId);
      assert.ok(listed, `session ${sessionId} in ${JSON.stringify(page)}`);
      assert.equal(listed.cwd, project);
    } finally {
      await harness.dispose();
    }
  });

  it('loads that conversation in a new process: its replay shown streams to the hooks; left out, none of it does', async () => {
    const shown = startAgentSession(claude, project);
    try {
      await shown.session.start({ kind: 'load', sessionId, replay: 'show' });
      assert.deepEqual(messages(shown.actions), [`user: ${PROMPT}`, `agent: Mock Claude heard: ${PROMPT}`]);
    } finally {
      await shown.dispose();
    }
    const suppressed = startAgentSession(claude, project);
    try {
      await suppressed.session.start({ kind: 'load', sessionId, replay: 'suppress' });
      assert.equal(suppressed.session.sessionId, sessionId);
      assert.deepEqual(messages(suppressed.actions), []);
      assert.ok(suppressed.logLines.some((line) => /left out \d+ replayed updates/.test(line)));
    } finally {
      await suppressed.dispose();
    }
  });
});
