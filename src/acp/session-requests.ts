/**
 * The session lifecycle requests beyond `session/new`: load, resume, fork, list, close, delete, set_title.
 * Answers are validated leniently here, once; whether the agent advertised a method is decided above (the
 * connection sends what it is asked to).
 */
import type { CancellationToken } from 'vscode-jsonrpc';
import type { z } from 'zod';
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

  /** The agent replays the session as `session/update`s before it answers. */
  load(params: SessionPlace & { readonly sessionId: string }): Promise<SessionSetup> {
    return this.setup('session/load', params);
  }

  /** No replay: the client keeps its own transcript. */
  resume(params: SessionPlace & { readonly sessionId: string }): Promise<SessionSetup> {
    return this.setup('session/resume', params);
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

  private async setup(method: string, params: object): Promise<SessionSetup> {
    return this.setupOf(method, await this.send(method, params, results.sessionSetupResult));
  }

  private setupOf(method: string, result: results.SessionSetupResult): SessionSetup {
    const problems: string[] = [];
    const setup = sessionSetupOf(result, problems);
    problems.forEach((problem) => this.report(`${method}: ${problem}`));
    return setup;
  }
}
