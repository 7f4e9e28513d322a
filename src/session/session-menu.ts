/**
 * What a conversation can do to its agent's session besides prompting: its mode and options (a refused choice snaps
 * the picker back), and the agent's own sessions (list, fork, rename, delete), each only where the agent offers it.
 */
import type { AgentSession, ListedSession, SessionSupport } from './agent-session';
import type { TranscriptStore } from './transcript-store';

/** `session/list` pages read at most (an agent with thousands of sessions is listed in part). */
const MAX_LIST_PAGES = 10;

export interface SessionMenuHost {
  /** The conversation's session on its agent, while one is there. */
  current(): AgentSession | undefined;
  readonly store: TranscriptStore;
  agentName(): string | undefined;
  reportFailure(title: string, error: unknown): void;
}

export class SessionMenu {
  constructor(private readonly host: SessionMenuHost) {}

  async setMode(modeId: string): Promise<void> {
    const session = this.openSession();
    if (!session) return this.notRunning('Could not switch mode');
    try {
      await session.setMode(modeId);
      if (this.host.current() === session) this.host.store.dispatch({ type: 'mode_set', modeId });
    } catch (error) {
      this.refusedChoice('Could not switch mode', error);
    }
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const session = this.openSession();
    if (!session) return this.notRunning('Could not change the option');
    try {
      // An agent that answers without the options took the value as chosen.
      const configOptions =
        (await session.setConfigOption(configId, value)) ??
        this.host.store.state.configOptions.map((option) => (option.id === configId ? { ...option, currentValue: value } : option));
      if (this.host.current() === session) this.host.store.dispatch({ type: 'config_options_set', configOptions });
    } catch (error) {
      this.refusedChoice('Could not change the option', error);
    }
  }

  private openSession(): AgentSession | undefined {
    const session = this.host.current();
    return session && !session.exited ? session : undefined;
  }

  /**
   * The header's pickers stay on screen while the agent is stopped or exited: a choice made there then says why it
   * did not take (it was silently dropped) and snaps back.
   */
  private notRunning(title: string): void {
    const name = this.host.agentName() ?? 'The agent';
    this.refusedChoice(title, new Error(`${name} is not running. Send a prompt or run ACP: Restart Agent, then choose again.`));
  }

  /** A refused choice is already showing in the picker the user changed: it snaps back to what holds. */
  private refusedChoice(title: string, error: unknown): void {
    this.host.reportFailure(title, error);
    this.host.store.dispatch({ type: 'pickers_restated' });
  }

  /** What the running agent offers of the session lifecycle (list, load, resume, fork...); nothing while it is not running. */
  get support(): SessionSupport | undefined {
    const session = this.host.current();
    return session && !session.exited && session.sessionId !== undefined ? session.sessionSupport : undefined;
  }

  /** The agent's own sessions in this workspace (`session/list`, every page up to a bound). */
  async listAgentSessions(): Promise<readonly ListedSession[]> {
    const session = this.host.current();
    if (!session || !this.support?.list) return [];
    const sessions: ListedSession[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const listed = await session.listSessions(cursor);
      sessions.push(...listed.sessions);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return sessions;
  }

  /** `session/fork` of this conversation's session; the new session's id (the caller opens it in a conversation). */
  async fork(): Promise<string> {
    const session = this.host.current();
    if (!session || !this.support?.fork) throw new Error(`${this.host.agentName() ?? 'The agent'} does not offer forking sessions.`);
    return session.forkSession();
  }

  /** Renames with `session/set_title` where offered (the title as the agent stored it), else only here. */
  async rename(title: string): Promise<void> {
    const session = this.host.current();
    let stored = title;
    if (session && this.support?.setTitle) stored = await session.setTitle(title);
    this.host.store.dispatch({ type: 'title_set', title: stored });
  }

  /**
   * `session/delete` of one of the agent's sessions, where offered (this conversation's own is closed first).
   * False when the agent is not running or does not offer it: the caller deletes only its own copy then.
   */
  async deleteAgentSession(sessionId: string): Promise<boolean> {
    const session = this.host.current();
    const support = this.support;
    if (!session || !support?.delete) return false;
    if (session.sessionId === sessionId) {
      // The agent deletes only sessions not open on the connection.
      if (!support.close) return false;
      await session.closeSession();
    }
    await session.deleteSession(sessionId);
    return true;
  }
}
