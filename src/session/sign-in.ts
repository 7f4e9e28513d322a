/**
 * Signing in to an agent and out again (ACP `authMethods`, `authenticate`, `logout`). An `agent` method is the
 * agent's own business: we send `authenticate` and then open the session it refused. A `terminal` method is
 * never sent: the user runs the agent's own command, with the method's args and env, in a terminal, and a zero
 * exit means signed in, so the agent is restarted to pick up its new credentials.
 */
import type { AuthMethod } from '../acp/schemas/auth-methods';
import { apiKeyOwner, type AgentConfig } from '../agents/agent-config';
import type { CancellationSignal } from '../acp/rpc-boundary';
import type { NoticeSeverity } from '../shared/model';
import type { AgentSession } from './agent-session';
import type { AgentSecrets, SignInPrompts, TerminalSignInCommand } from './sign-in-ports';
import { asError, errorMessage } from '../shared/error-text';

/** What the sign-in flow needs from the session controller. */
export interface SignInHost {
  /** The agent process the chat is on, if one runs. */
  running(): { readonly session: AgentSession; readonly agent: AgentConfig } | undefined;
  /** Opens the session the agent refused before the user signed in (nothing when one is open). */
  reopen(session: AgentSession): Promise<void>;
  /** A fresh process, so the agent reads the credentials a terminal sign-in stored. */
  restart(agent: AgentConfig): Promise<void>;
  cwd(): string | undefined;
  notice(severity: NoticeSeverity, title: string, detail?: string): void;
}

export function terminalSignInCommand(
  agent: AgentConfig,
  method: Extract<AuthMethod, { type: 'terminal' }>,
  cwd: string,
): TerminalSignInCommand {
  return {
    name: `Sign in: ${agent.name}`,
    command: agent.command,
    args: [...agent.args, ...method.args],
    env: { ...agent.env, ...method.env },
    cwd,
  };
}

export class SignIn {
  constructor(
    private readonly host: SignInHost,
    private readonly prompts: SignInPrompts,
    private readonly secrets: AgentSecrets,
  ) {}

  async signIn(): Promise<void> {
    const running = this.host.running();
    if (!running) {
      this.host.notice('warning', 'No agent is running', 'Start an agent, then sign in to it.');
      return;
    }
    const { session, agent } = running;
    if (session.authMethods.length === 0 && agent.apiKeyEnv === undefined) {
      this.host.notice('warning', `${agent.name} lists no way to sign in`, 'Sign in the way its documentation says, then restart it.');
      return;
    }
    const method = await this.prompts.pickMethod(agent.name, session.authMethods, agent.apiKeyEnv);
    if (!method) return;
    if (method.type === 'api_key') await this.withApiKey(agent, method.envName);
    else if (method.type === 'terminal') await this.inTerminal(agent, method);
    else await this.throughAgent(session, agent, method);
  }

  async signOut(): Promise<void> {
    const running = this.host.running();
    if (!running) {
      this.host.notice('warning', 'No agent is running', 'Start an agent to sign out of it.');
      return;
    }
    const { session, agent } = running;
    if (!session.canLogOut) {
      this.host.notice('info', `${agent.name} cannot sign out from here`, 'It does not offer ACP sign-out (logout).');
      return;
    }
    try {
      await session.logout();
    } catch (error) {
      this.host.notice('error', `Signing out of ${agent.name} failed`, errorMessage(error));
      return;
    }
    this.host.notice('info', `Signed out of ${agent.name}`);
    // The open session was made while signed in: a fresh start shows what the agent needs now.
    await this.host.restart(agent);
  }

  private async throughAgent(session: AgentSession, agent: AgentConfig, method: AuthMethod): Promise<void> {
    try {
      const outcome = await this.prompts.withProgress(`Signing in to ${agent.name} (${method.name})…`, (signal) =>
        untilCancelled(session.authenticate(method.id, signal), signal),
      );
      if (outcome === 'cancelled') return;
    } catch (error) {
      this.host.notice('error', `Signing in to ${agent.name} failed`, errorMessage(error));
      return;
    }
    await this.host.reopen(session);
  }

  /** The key goes to secret storage only; the restarted agent gets it in its environment (session-controller). */
  private async withApiKey(agent: AgentConfig, envName: string): Promise<void> {
    const key = await this.prompts.askApiKey(agent.name, envName);
    if (!key) return;
    await this.secrets.storeApiKey(apiKeyOwner(agent), key);
    await this.host.restart(agent);
  }

  private async inTerminal(agent: AgentConfig, method: Extract<AuthMethod, { type: 'terminal' }>): Promise<void> {
    const cwd = this.host.cwd();
    if (!cwd) {
      this.host.notice('warning', 'Open a folder to sign in', 'The sign-in runs the agent in a workspace folder; none is open.');
      return;
    }
    const exitCode = await this.prompts.runInTerminal(terminalSignInCommand(agent, method, cwd));
    if (exitCode !== 0) {
      this.host.notice(
        'error',
        `Signing in to ${agent.name} failed`,
        exitCode === undefined
          ? 'The sign-in terminal closed before its command finished.'
          : `The sign-in command exited with code ${exitCode}.`,
      );
      return;
    }
    await this.host.restart(agent);
  }
}

/** The user cancelled: stop waiting now, whether or not the agent ever answers the abandoned request. */
function untilCancelled(work: Promise<void>, signal: CancellationSignal): Promise<'done' | 'cancelled'> {
  return new Promise((resolve, reject) => {
    const subscription = signal.onCancellationRequested(() => resolve('cancelled'));
    void work
      .then(
        () => resolve(signal.isCancellationRequested ? 'cancelled' : 'done'),
        (error: unknown) => (signal.isCancellationRequested ? resolve('cancelled') : reject(asError(error))),
      )
      .finally(() => subscription.dispose());
  });
}
