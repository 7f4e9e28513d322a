/**
 * Signing in, in the real VS Code. Codex and Gemini CLI, started without credentials, refuse the session with
 * -32000: the chat says "Sign-in needed" with each agent's own method names, and ACP: Sign In… opens the quick
 * pick of them (the logins themselves need the internet, so the tests stop there). Claude Code opens the session
 * signed out and refuses the first prompt: its two terminal methods are offered, and picking one opens a VS Code
 * terminal running Claude Code's own command line with the method's args. The scripted agent's ACP_AUTH shows the
 * whole terminal path: its exit 0 restarts the agent signed in.
 */
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { claudeAgentBin } from '../support/claude-agent';
import { codexLaunch, geminiCliLaunch, type AgentLaunch } from '../support/real-agents';
import { scriptedAgentPath } from '../support/repo-root';
import { api, sleep, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

const STARTUP_MS = 90_000;
const needsAuth = (state: TranscriptState): boolean => state.agent.phase === 'needs_auth';

async function startWithoutCredentials(name: string, launch: AgentLaunch): Promise<{ client: AcpClientTestApi; state: TranscriptState }> {
  const config = vscode.workspace.getConfiguration('acpClient');
  await config.update(
    'agents',
    { [name]: { command: launch.command, args: launch.args, env: launch.env } },
    vscode.ConfigurationTarget.Global,
  );
  await config.update('defaultAgent', name, vscode.ConfigurationTarget.Global);
  const client = await api();
  await vscode.commands.executeCommand('acpClient.newSession');
  const state = await waitFor(client, (s) => needsAuth(s) || s.agent.phase === 'exited' || s.agent.phase === 'ready', STARTUP_MS);
  return { client, state };
}

/** Opens ACP: Sign In… and picks the item at `index`, or dismisses the picker when `index` is undefined. */
async function signInPicking(index: number | undefined): Promise<void> {
  const signingIn = vscode.commands.executeCommand('acpClient.signIn');
  await sleep(600);
  if (index === undefined) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  else {
    for (let step = 0; step < index; step++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  await signingIn;
}

function withoutKeys(env: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
}

describe('signing in to agents in VS Code', function () {
  this.timeout(180_000);
  const homes: string[] = [];

  after(async () => {
    // Switching to the scripted agent stops the real one before its HOME goes.
    await useScriptedAgent('echo');
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  it('Codex without credentials: "Sign-in needed" with its own methods; the picker can be dismissed, and its first method (API Key) is sent as authenticate and its refusal shown', async () => {
    const launch = codexLaunch();
    homes.push(launch.home);
    const { client, state } = await startWithoutCredentials('Codex', launch);
    // Codex decides some of its methods by its environment (a device-code login where it cannot open a browser):
    // its first two are always these, in this order.
    assert.equal(state.agent.phase, 'needs_auth');
    assert.deepEqual(state.agent.phase === 'needs_auth' && state.agent.methods.slice(0, 2), ['API Key', 'ChatGPT']);
    await signInPicking(undefined);
    assert.equal(client.transcript().agent.phase, 'needs_auth', 'dismissing the picker changes nothing');
    // The picker lists Codex's methods in its order: the first, "API Key", is sent as authenticate, and
    // without a key in its environment Codex refuses, which the chat shows.
    await signInPicking(0);
    const failed = await waitFor(client, (s) =>
      entriesOf(s).some((entry) => entry.kind === 'notice' && entry.title === 'Signing in to Codex failed'),
    );
    const notice = entriesOf(failed).find((entry) => entry.kind === 'notice' && entry.title === 'Signing in to Codex failed');
    assert.match(notice?.kind === 'notice' ? (notice.detail ?? '') : '', /OPENAI_API_KEY is not set/);
    assert.equal(failed.agent.phase, 'needs_auth');
  });

  it('Gemini CLI without credentials: "Sign-in needed" with its own methods', async () => {
    const base = geminiCliLaunch('http://127.0.0.1:9');
    homes.push(base.home);
    const launch = { ...base, env: withoutKeys(base.env, ['GEMINI_API_KEY', 'GOOGLE_GEMINI_BASE_URL']) };
    const { state } = await startWithoutCredentials('Gemini CLI', launch);
    assert.deepEqual(state.agent, {
      phase: 'needs_auth',
      agentName: 'Gemini CLI',
      methods: ['Log in with Google', 'Gemini API key', 'Vertex AI', 'AI API Gateway'],
    });
  });

  it('Claude Code without credentials: the first prompt is refused, "Sign-in needed" with its own terminal methods, and picking one opens a terminal running its own login command line with its env', async () => {
    const base = codexLaunch(); // only for a throwaway HOME with XDG folders
    homes.push(base.home);
    const claudeConfig = path.join(base.home, '.claude');
    const env = {
      ...withoutKeys(base.env, ['CODEX_HOME']),
      CLAUDE_CONFIG_DIR: claudeConfig,
      // Offline, and where Claude Code would not think it runs over SSH (then it offers another login).
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      IS_SANDBOX: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      NO_BROWSER: '',
      SSH_CONNECTION: '',
      SSH_CLIENT: '',
      SSH_TTY: '',
      CLAUDE_CODE_REMOTE: '',
    };
    const launch = { command: process.execPath, args: [claudeAgentBin()], env, home: base.home };
    const { client, state } = await startWithoutCredentials('Claude Code', launch);
    assert.equal(state.agent.phase, 'ready', 'Claude Code opens a session signed out');
    assert.deepEqual(await client.sendPrompt('hello before signing in'), { accepted: true });
    const refused = await waitFor(client, (s) => needsAuth(s) && (s.queued?.length ?? 0) > 0, STARTUP_MS);
    assert.deepEqual(refused.agent, {
      phase: 'needs_auth',
      agentName: 'Claude Code',
      methods: ['Claude Subscription', 'Anthropic Console'],
    });
    assert.deepEqual(
      refused.queued?.map((queued) => queued.text),
      ['hello before signing in'],
      'the refused prompt waits to be sent once signed in',
    );
    const opened = new Promise<vscode.Terminal>((resolve) => {
      const subscription = vscode.window.onDidOpenTerminal((terminal) => {
        subscription.dispose();
        resolve(terminal);
      });
    });
    const signingIn = signInPicking(0);
    const terminal = await opened;
    const options = terminal.creationOptions as vscode.TerminalOptions;
    assert.equal(terminal.name, 'Sign in: Claude Code');
    assert.equal(options.shellPath, process.execPath);
    assert.deepEqual(options.shellArgs, [claudeAgentBin(), '--cli', 'auth', 'login', '--claudeai']);
    assert.deepEqual(options.env, env);
    // The login itself needs claude.ai: closing its terminal is a sign-in that did not finish.
    terminal.dispose();
    await signingIn;
    const failed = await waitFor(client, (s) =>
      entriesOf(s).some((entry) => entry.kind === 'notice' && entry.title === 'Signing in to Claude Code failed'),
    );
    assert.equal(failed.agent.phase, 'needs_auth');
  });

  it('a terminal method opens a VS Code terminal with the agent command, the method args appended and its env; exit 0 restarts the agent signed in', async () => {
    const marker = path.join(workspaceRoot(), '.scripted-signed-in');
    rmSync(marker, { force: true });
    const env = { ACP_SCENARIO: 'echo', ACP_AUTH: '1', ACP_AUTH_MARKER: marker, ACP_LOGIN_BY: 'settings' };
    const { client, state } = await startWithoutCredentials('Scripted', {
      command: process.execPath,
      args: [scriptedAgentPath()],
      env,
      home: '',
    });
    assert.deepEqual(state.agent, { phase: 'needs_auth', agentName: 'Scripted', methods: ['Scripted sign-in', 'Sign in in a terminal'] });
    const opened = new Promise<vscode.Terminal>((resolve) => {
      const subscription = vscode.window.onDidOpenTerminal((terminal) => {
        subscription.dispose();
        resolve(terminal);
      });
    });
    const signingIn = signInPicking(1);
    const terminal = await opened;
    const options = terminal.creationOptions as vscode.TerminalOptions;
    assert.equal(terminal.name, 'Sign in: Scripted');
    assert.equal(options.shellPath, process.execPath);
    assert.deepEqual(options.shellArgs, [scriptedAgentPath(), '--terminal-login']);
    assert.deepEqual(options.env, { ...env, ACP_LOGIN_BY: 'terminal' });
    await signingIn;
    await waitFor(client, (s) => s.agent.phase === 'ready', 30_000);
    assert.ok(existsSync(marker), 'the login ran in the terminal');
    rmSync(marker, { force: true });
  });
});
