/**
 * The session lifecycle requests beyond `session/new`: load, resume, fork, list, close, delete, set_title.
 * Answers are validated leniently here, once; whether the agent advertised a method is decided above (the
 * connection sends what it is asked to).
 */
import { CancellationTokenSource, type CancellationToken } from 'vscode-jsonrpc';
import type { z } from 'zod';
import type { CancellationSignal } from './rpc-boundary';
import * as results from './schemas/agent-results';
import { parseListedSessions, type ListedSession } from './schemas/listed-sessions';
import { sessionSetupOf, type OpenedSession, type SessionSetup } from './schemas/session-setup';

export type SendRequest = <S extends z.ZodType>(
  method: string,
  params: object,
  schema: S,
  token?: CancellationToken,
) => Promise<z.infer<S>>;

/** `cwd` and `mcpServers` as `session/new` carried them: an agent reopens a session where it was made. */
export interface SessionPlace {
  readonly cwd: string;
  readonly mcpServers: readonly unknown[];
  /** The workspace's other folders, only to an agent that advertised `sessionCapabilities.additionalDirectories`. */
  readonly additionalDirectories?: readonly string[];
}

export interface SessionPage {
  readonly sessions: readonly ListedSession[];
  /** Absent on the last page. */
  readonly nextCursor?: string;
}

export class SessionRequests {
  constructor(
    private readonly send: SendRequest,
    private readonly report: (problem: string) => void,
  ) {}

  /**
   * The agent replays the session as `session/update`s before it answers. `giveUp`: the user no longer waits
   * (see `abandonable`).
   */
  load(params: SessionPlace & { readonly sessionId: string }, giveUp?: CancellationSignal): Promise<SessionSetup> {
    return this.setup('session/load', params, giveUp);
  }

  /** No replay: the client keeps its own transcript. */
  resume(params: SessionPlace & { readonly sessionId: string }, giveUp?: CancellationSignal): Promise<SessionSetup> {
    return this.setup('session/resume', params, giveUp);
  }

  /** Unstable: a new session that starts from the named one's context. */
  async fork(params: SessionPlace & { readonly sessionId: string }): Promise<OpenedSession> {
    const forked = await this.send('session/fork', params, results.forkSessionResult);
    return { sessionId: forked.sessionId, ...this.setupOf('session/fork', forked) };
  }

  async list(params: { readonly cwd: string; readonly cursor?: string }): Promise<SessionPage> {
    const page = await this.send('session/list', params, results.listSessionsResult);
    const problems: string[] = [];
    const sessions = parseListedSessions(page.sessions, problems);
    // Each left-out entry is named: it is a session the user will not see.
    problems.forEach((problem) => this.report(problem));
    return { sessions, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  async close(params: { readonly sessionId: string }): Promise<void> {
    await this.send('session/close', params, results.emptyResult);
  }

  async delete(params: { readonly sessionId: string }): Promise<void> {
    await this.send('session/delete', params, results.emptyResult);
  }

  /** The title as the agent stored it, if it said. */
  async setTitle(params: { readonly sessionId: string; readonly title: string }): Promise<string | undefined> {
    const answer = await this.send('session/set_title', params, results.setSessionTitleResult);
    return answer?.title ?? undefined;
  }

  private async setup(method: string, params: object, giveUp: CancellationSignal | undefined): Promise<SessionSetup> {
    const result = await abandonable(method, giveUp, (token) => this.send(method, params, results.sessionSetupResult, token));
    return this.setupOf(method, result);
  }

  private setupOf(method: string, result: results.SessionSetupResult): SessionSetup {
    const problems: string[] = [];
    const setup = sessionSetupOf(result, problems);
    problems.forEach((problem) => this.report(`${method}: ${problem}`));
    return setup;
  }
}

/** A request the client gave up on before the agent answered; the agent was sent `$/cancel_request` for it. */
export class RequestGivenUp extends Error {
  constructor(readonly method: string) {
    super(`${method} was given up before the agent answered`);
    this.name = 'RequestGivenUp';
  }
}

/**
 * Sends a request that the client may give up on. When `giveUp` fires, the library's token is cancelled, which puts
 * `$/cancel_request {requestId}` on the wire (see cancel-dialect.ts), and the caller is answered at once with
 * RequestGivenUp: ACP says the agent still answers (a result or -32800), but one that never does must not keep the
 * conversation waiting. A late answer is dropped.
 */
function abandonable<T>(
  method: string,
  giveUp: CancellationSignal | undefined,
  send: (token?: CancellationToken) => Promise<T>,
): Promise<T> {
  if (!giveUp) return send();
  if (giveUp.isCancellationRequested) return Promise.reject(new RequestGivenUp(method));
  const source = new CancellationTokenSource();
  return new Promise<T>((resolve, reject) => {
    const subscription = giveUp.onCancellationRequested(() => {
      source.cancel();
      reject(new RequestGivenUp(method));
    });
    send(source.token)
      .then(resolve, reject)
      .finally(() => {
        subscription.dispose();
        source.dispose();
      });
  });
}
