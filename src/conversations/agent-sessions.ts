/**
 * The agent's own sessions (`session/list`) that no conversation here holds yet, per agent: listed through a
 * conversation whose agent runs and offers listing, refreshed when asked and at most every few seconds.
 */
import { EventEmitter } from 'node:events';
import { isDeepStrictEqual } from 'node:util';
import type { ListedSession, SessionSupport } from '../session/agent-session';

/** What listing needs of the conversations: which sessions they hold, and the loaded ones' agents. */
export interface ListingSource {
  heldAgentSessions(): ReadonlySet<string>;
  loadedConversations(): readonly {
    readonly agentName: string | undefined;
    readonly controller: { readonly support: SessionSupport | undefined; listAgentSessions(): Promise<readonly ListedSession[]> };
  }[];
}

export interface AgentSessionInfo extends ListedSession {
  readonly agentName: string;
  /** Why it cannot be opened here, if it cannot (the agent offers neither load nor resume). */
  readonly cannotOpen?: string;
}

const MIN_REFRESH_MS = 5_000;

export class AgentSessions {
  private byAgent = new Map<string, readonly AgentSessionInfo[]>();
  private refreshedAt = 0;
  private refreshing: Promise<void> | undefined;
  private readonly events = new EventEmitter<{ changed: [] }>().setMaxListeners(0);

  constructor(private readonly conversations: ListingSource) {}

  onDidChange(listener: () => void): { dispose(): void } {
    this.events.on('changed', listener);
    return { dispose: () => this.events.off('changed', listener) };
  }

  /** Per agent name, the sessions it listed that no conversation here holds. */
  list(): ReadonlyMap<string, readonly AgentSessionInfo[]> {
    const held = this.conversations.heldAgentSessions();
    const visible = new Map<string, readonly AgentSessionInfo[]>();
    for (const [agent, sessions] of this.byAgent) {
      const open = sessions.filter((session) => !held.has(session.sessionId));
      if (open.length > 0) visible.set(agent, open);
    }
    return visible;
  }

  /** Lists again (one `session/list` walk per running agent that offers it); `force` ignores the rate bound. */
  refresh(force = false): Promise<void> {
    if (this.refreshing) return this.refreshing;
    if (!force && Date.now() - this.refreshedAt < MIN_REFRESH_MS) return Promise.resolve();
    this.refreshing = this.listAll().finally(() => {
      this.refreshing = undefined;
      this.refreshedAt = Date.now();
    });
    return this.refreshing;
  }

  private async listAll(): Promise<void> {
    const next = new Map<string, readonly AgentSessionInfo[]>();
    for (const conversation of this.conversations.loadedConversations()) {
      const agentName = conversation.agentName;
      const support = conversation.controller.support;
      if (!agentName || !support?.list || next.has(agentName)) continue;
      try {
        const listed = await conversation.controller.listAgentSessions();
        const cannotOpen =
          support.load || support.resume ? undefined : `${agentName} lists it but offers neither session/load nor session/resume.`;
        next.set(
          agentName,
          listed.map((session) => ({ ...session, agentName, ...(cannotOpen ? { cannotOpen } : {}) })),
        );
      } catch {
        // Listing is a convenience: an agent that fails it keeps its earlier list.
        const earlier = this.byAgent.get(agentName);
        if (earlier) next.set(agentName, earlier);
      }
    }
    // Agents not running now keep what they listed last.
    for (const [agent, sessions] of this.byAgent) if (!next.has(agent)) next.set(agent, sessions);
    // Only a real change is news: the Sessions view lists again on each root fetch, and a refresh for nothing 250 ms
    // later can land while VS Code is asking for a day's children, which it then answers with none (the focus e2e's
    // "Today" stayed empty after `No tree item with id '1/day:Today' found.`).
    if (isDeepStrictEqual(next, this.byAgent)) return;
    this.byAgent = next;
    this.events.emit('changed');
  }
}
