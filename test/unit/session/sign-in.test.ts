/**
 * Signing in, with the scripted agent's ACP_AUTH knob (a real process on the official SDK): it refuses
 * `session/new` with -32000 until signed in, offers an `agent` method (authenticate) and a `terminal` method
 * (run itself with a login flag, which writes a marker file and exits 0), and serves `logout`.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { scriptedAgentPath } from '../../support/repo-root';
import { SCRIPTED_API_KEY } from '../../fixtures/agents/auth';
import { entriesOf } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';

const notices = (state: TranscriptState) => entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [entry] : []));
const agentSaid = (harness: HostHarness, line: string): number =>
  harness.logLines.filter((logged) => logged.includes('[Scripted stderr]') && logged.endsWith(line)).length;

describe('signing in to an agent', function () {
  this.timeout(30_000);
  const suite = new HarnessSuite('acp-sign-in-');
  const marker = (): string => path.join(suite.root, '.signed-in');
  const authAgent = (extra: Record<string, string> = {}) => scriptedAgent('stream', { ACP_AUTH: '1', ACP_AUTH_MARKER: marker(), ...extra });

  it('an agent that answers session/new with auth_required keeps running and the chat says "Sign-in needed" with its methods', async () => {
    const harness = suite.start();
    await harness.controller.start(authAgent());
    const state = harness.store.state;
    assert.deepEqual(state.agent, { phase: 'needs_auth', agentName: 'Scripted', methods: ['Scripted sign-in', 'Sign in in a terminal'] });
    assert.equal(harness.controller.lifecycle, 'sign_in_needed', 'the process is kept for authenticate');
    const [notice] = notices(state);
    assert.equal(notice?.title, 'Sign in to Scripted to start a session');
    assert.equal(notice?.action, 'sign_in');
    assert.deepEqual(harness.warnings, ['Scripted needs you to sign in.']);
    assert.deepEqual(await harness.controller.sendPrompt('hello'), { accepted: false, reason: 'Sign in to Scripted first.' });
  });

  it('an agent-type method: the quick pick lists the methods by name and description, authenticate is sent, then the session opens on the same process', async () => {
    const harness = suite.start();
    await harness.controller.start(authAgent());
    harness.signIn.choice = 'scripted-login';
    await harness.controller.signIn();
    assert.deepEqual(
      harness.signIn.offered[0]?.methods.map((method) => [method.type, method.name, method.description]),
      [
        ['agent', 'Scripted sign-in', 'Signs in at once, no questions asked'],
        ['terminal', 'Sign in in a terminal', 'Runs the agent with a login flag'],
      ],
    );
    assert.equal(harness.signIn.offered[0]?.apiKeyEnv, undefined, 'no "Enter API key…" without apiKeyEnv in its settings');
    assert.deepEqual(harness.signIn.progressTitles, ['Signing in to Scripted (Scripted sign-in)…']);
    assert.equal(harness.store.state.agent.phase, 'ready');
    assert.ok(harness.store.state.sessionId);
    assert.equal(agentSaid(harness, 'authenticate scripted-login'), 1);
    assert.equal(agentSaid(harness, 'initialize v1'), 1, 'no restart: the same process opened the session');
    assert.deepEqual(await harness.controller.sendPrompt('hello'), { accepted: true });
  });

  it("the toast's Sign In… opens the method picker while sign-in is needed, and does nothing once the user signed in from the chat", async () => {
    const harness = suite.start();
    await harness.controller.start(authAgent());
    harness.signIn.choice = 'scripted-login';
    await harness.controller.signIn();
    assert.equal(harness.store.state.agent.phase, 'ready');
    assert.equal(harness.signIn.offered.length, 1);
    harness.clickWarning(0, 'Sign In…');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(harness.signIn.offered.length, 1, 'a toast left from before sign-in asks nothing');
    assert.deepEqual(harness.notifications, ['Scripted is signed in already.'], 'and says why');

    const waiting = suite.start();
    await waiting.controller.start(authAgent());
    waiting.signIn.choice = undefined;
    waiting.clickWarning(0, 'Sign In…');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(waiting.signIn.offered.length, 1, 'while sign-in is needed the button asks for a method');
    assert.deepEqual(waiting.notifications, []);

    const stopped = suite.start();
    await stopped.controller.start(authAgent());
    await stopped.controller.stop();
    stopped.clickWarning(0, 'Sign In…');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(stopped.signIn.offered.length, 0, 'a stopped agent is not asked to sign in');
    assert.deepEqual(stopped.notifications, ['Scripted is not waiting for a sign-in any more: that session has ended.']);
  });

  it('cancelling the sign-in progress leaves the agent waiting for sign-in', async () => {
    const harness = suite.start();
    await harness.controller.start(authAgent());
    harness.signIn.choice = 'scripted-login';
    harness.signIn.cancelProgress = true;
    await harness.controller.signIn();
    assert.equal(harness.store.state.agent.phase, 'needs_auth');
    assert.equal(harness.store.state.sessionId, undefined);
  });

  it('dismissing the quick pick does nothing', async () => {
    const harness = suite.start();
    await harness.controller.start(authAgent());
    harness.signIn.choice = undefined;
    await harness.controller.signIn();
    assert.equal(harness.store.state.agent.phase, 'needs_auth');
    assert.equal(agentSaid(harness, 'authenticate scripted-login'), 0);
  });

  it("a terminal method runs the agent's own command with the method's args appended and its env on top, never authenticate; exit 0 restarts the agent signed in", async () => {
    const harness = suite.start();
    // The setting's ACP_LOGIN_BY must lose to the method's.
    await harness.controller.start(authAgent({ ACP_LOGIN_BY: 'settings' }));
    harness.signIn.choice = 'scripted-terminal';
    await harness.controller.signIn();
    assert.deepEqual(harness.signIn.terminals, [
      {
        name: 'Sign in: Scripted',
        command: process.execPath,
        args: [scriptedAgentPath(), '--terminal-login'],
        env: { ACP_SCENARIO: 'stream', ACP_AUTH: '1', ACP_AUTH_MARKER: marker(), ACP_LOGIN_BY: 'terminal' },
        cwd: suite.root,
      },
    ]);
    assert.ok(existsSync(marker()), 'the login run wrote its marker');
    assert.equal(harness.store.state.agent.phase, 'ready');
    assert.equal(agentSaid(harness, 'initialize v1'), 2, 'restarted to read the new credentials');
    assert.equal(
      harness.logLines.some((line) => line.includes('authenticate')),
      false,
      'a terminal method is never sent to authenticate',
    );
  });

  it('a terminal sign-in that exits non-zero says it failed and the agent keeps waiting', async () => {
    const harness = suite.start();
    // Without a marker path the login run exits 3.
    await harness.controller.start(scriptedAgent('stream', { ACP_AUTH: '1' }));
    harness.signIn.choice = 'scripted-terminal';
    await harness.controller.signIn();
    const failed = notices(harness.store.state).find((notice) => notice.title === 'Signing in to Scripted failed');
    assert.equal(failed?.detail, 'The sign-in command exited with code 3.');
    assert.equal(harness.store.state.agent.phase, 'needs_auth');
  });

  it('Sign Out sends logout to an agent that offers it; the restarted agent needs sign-in again', async () => {
    const harness = suite.start();
    await harness.controller.start(authAgent());
    harness.signIn.choice = 'scripted-terminal';
    await harness.controller.signIn();
    assert.equal(harness.store.state.agent.phase, 'ready');
    await harness.controller.signOut();
    assert.equal(agentSaid(harness, 'logout'), 1);
    assert.equal(existsSync(marker()), false, 'the agent forgot the credentials');
    assert.ok(notices(harness.store.state).some((notice) => notice.title === 'Signed out of Scripted'));
    assert.equal(harness.store.state.agent.phase, 'needs_auth');
  });

  it('Enter API key… (agents whose settings name apiKeyEnv): the key goes to secret storage and into that variable at spawn, never into logs or the transcript', async () => {
    const harness = suite.start();
    await harness.controller.start({ ...authAgent(), apiKeyEnv: 'SCRIPTED_API_KEY' });
    assert.equal(harness.store.state.agent.phase, 'needs_auth');
    harness.signIn.choice = 'api_key';
    harness.signIn.typedKey = SCRIPTED_API_KEY;
    await harness.controller.signIn();
    assert.equal(harness.signIn.offered[0]?.apiKeyEnv, 'SCRIPTED_API_KEY');
    assert.equal(harness.secrets.keys.get('Scripted'), SCRIPTED_API_KEY);
    assert.equal(harness.store.state.agent.phase, 'ready', 'the restarted agent found the key in its env');
    assert.equal(
      harness.logLines.some((line) => line.includes(SCRIPTED_API_KEY)),
      false,
    );
    assert.equal(JSON.stringify(harness.store.state).includes(SCRIPTED_API_KEY), false);
    // A later start (a new session, a restart) passes the stored key again.
    await harness.controller.restart();
    const afterRestart: TranscriptState = harness.store.state;
    assert.equal(afterRestart.agent.phase, 'ready');
  });

  it('Sign Out on an agent without logout says it cannot and changes nothing', async () => {
    const harness = suite.start();
    await harness.controller.start(scriptedAgent('stream'));
    await harness.controller.signOut();
    const notice = notices(harness.store.state).find((entry) => entry.title === 'Scripted cannot sign out from here');
    assert.equal(notice?.detail, 'It does not offer ACP sign-out (logout).');
    assert.equal(harness.store.state.agent.phase, 'ready');
    assert.equal(agentSaid(harness, 'logout'), 0);
  });

  describe('an agent that opens the session but refuses the prompt (as Claude Code does signed out)', () => {
    const promptAuthAgent = () => authAgent({ ACP_AUTH_AT: 'prompt' });
    const answered = (state: TranscriptState, text: string): boolean =>
      entriesOf(state).some(
        (entry) =>
          entry.kind === 'message' &&
          entry.role === 'agent' &&
          entry.content.some((block) => block.type === 'text' && block.text.includes(text)),
      );

    it('the refused prompt ends its turn, the chat says "Sign-in needed" with the methods, and the prompt waits in the queue', async () => {
      const harness = suite.start();
      await harness.controller.start(promptAuthAgent());
      assert.equal(harness.store.state.agent.phase, 'ready', 'the session opened signed out');
      assert.deepEqual(await harness.controller.sendPrompt('hello after sign-in'), { accepted: true });
      const state = await harness.waitFor((s) => s.agent.phase === 'needs_auth' && (s.queued?.length ?? 0) > 0);
      assert.deepEqual(state.agent, { phase: 'needs_auth', agentName: 'Scripted', methods: ['Scripted sign-in', 'Sign in in a terminal'] });
      assert.equal(state.turn.phase, 'idle');
      assert.deepEqual(
        state.queued?.map((queued) => queued.text),
        ['hello after sign-in'],
      );
      assert.equal(notices(state).at(-1)?.action, 'sign_in');
    });

    it('signing in through authenticate keeps the session and sends the waiting prompt again', async () => {
      const harness = suite.start();
      await harness.controller.start(promptAuthAgent());
      const sessionId = harness.store.state.sessionId;
      await harness.controller.sendPrompt('hello after sign-in');
      await harness.waitFor((s) => s.agent.phase === 'needs_auth');
      harness.signIn.choice = 'scripted-login';
      await harness.controller.signIn();
      const state = await harness.waitFor((s) => answered(s, 'hello after sign-in') && s.turn.phase === 'idle');
      assert.equal(state.agent.phase, 'ready');
      assert.equal(state.sessionId, sessionId, 'the same session');
      assert.deepEqual(state.queued ?? [], []);
      assert.equal(agentSaid(harness, 'initialize v1'), 1, 'the same process');
    });

    it('signing in in a terminal restarts the agent and the waiting prompt is sent to it', async () => {
      const harness = suite.start();
      await harness.controller.start(promptAuthAgent());
      await harness.controller.sendPrompt('hello after sign-in');
      await harness.waitFor((s) => s.agent.phase === 'needs_auth');
      harness.signIn.choice = 'scripted-terminal';
      await harness.controller.signIn();
      const state = await harness.waitFor((s) => answered(s, 'hello after sign-in') && s.turn.phase === 'idle');
      assert.equal(state.agent.phase, 'ready');
      assert.equal(agentSaid(harness, 'initialize v1'), 2, 'a fresh process read the new credentials');
    });
  });
});
