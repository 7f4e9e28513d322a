/**
 * The sign-in ports for host tests: a "quick pick" that chooses a method by id, a progress that can be
 * cancelled, and a "terminal" that really runs the command (as VS Code's would) and reports its exit code.
 */
import { spawn } from 'node:child_process';
import type { AuthMethod } from '../../src/acp/schemas/auth-methods';
import type { CancellationSignal } from '../../src/acp/rpc-boundary';
import type { AgentSecrets, SignInChoice, SignInPrompts, TerminalSignInCommand } from '../../src/session/sign-in-ports';

export class ScriptedSignInPrompts implements SignInPrompts {
  /** The method id the user picks next ('api_key': Enter API key…); undefined dismisses the picker. */
  choice: string | undefined;
  /** What the user types into the API key box. */
  typedKey: string | undefined;
  /** Cancel the progress as soon as it shows. */
  cancelProgress = false;
  readonly offered: { agentName: string; methods: readonly AuthMethod[]; apiKeyEnv: string | undefined }[] = [];
  readonly progressTitles: string[] = [];
  readonly terminals: TerminalSignInCommand[] = [];

  pickMethod(agentName: string, methods: readonly AuthMethod[], apiKeyEnv: string | undefined): Promise<SignInChoice | undefined> {
    this.offered.push({ agentName, methods, apiKeyEnv });
    if (this.choice === 'api_key' && apiKeyEnv !== undefined) return Promise.resolve({ type: 'api_key', envName: apiKeyEnv });
    return Promise.resolve(methods.find((method) => method.id === this.choice));
  }

  askApiKey(): Promise<string | undefined> {
    return Promise.resolve(this.typedKey);
  }

  withProgress<T>(title: string, task: (signal: CancellationSignal) => Promise<T>): Promise<T> {
    this.progressTitles.push(title);
    const listeners = new Set<() => void>();
    const signal: CancellationSignal = {
      isCancellationRequested: this.cancelProgress,
      onCancellationRequested: (listener) => {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
    };
    const running = task(signal);
    if (this.cancelProgress) listeners.forEach((listener) => listener());
    return running;
  }

  runInTerminal(command: TerminalSignInCommand): Promise<number | undefined> {
    this.terminals.push(command);
    return new Promise((resolve) => {
      const child = spawn(command.command, [...command.args], {
        cwd: command.cwd,
        env: { ...process.env, ...command.env },
        stdio: 'ignore',
      });
      child.on('error', () => resolve(undefined));
      child.on('exit', (code) => resolve(code ?? undefined));
    });
  }
}

/** Secret storage in memory. */
export class MemorySecrets implements AgentSecrets {
  readonly keys = new Map<string, string>();
  apiKey(agentName: string): Promise<string | undefined> {
    return Promise.resolve(this.keys.get(agentName));
  }
  storeApiKey(agentName: string, key: string): Promise<void> {
    this.keys.set(agentName, key);
    return Promise.resolve();
  }
}
