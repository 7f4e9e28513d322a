/**
 * The running agents, one process per agent setup (command, args, env, folder, protocol offer), shared by every
 * session of that agent: a second conversation with an agent already running opens its session at once instead
 * of starting another process. A connection that is stopping or retired is never handed out again; one that
 * exits leaves the pool. When a fresh process of an agent opens its first session, the pool says so, and the
 * sessions its predecessor left exited come back on it (one restart brings them all back).
 */
import { EventEmitter } from 'node:events';
import type { AgentConfig } from '../agents/agent-config';
import { AgentConnection, type AgentConnectionOptions } from './agent-connection';

export class AgentPool {
  private readonly live = new Map<string, AgentConnection>();
  private readonly events = new EventEmitter<{ revived: [agentName: string] }>().setMaxListeners(0);

  /** An agent (by name) has a fresh process serving sessions again. */
  onRevived(listener: (agentName: string) => void): { dispose(): void } {
    this.events.on('revived', listener);
    return { dispose: () => this.events.off('revived', listener) };
  }

  /** The running connection for this setup, or a new process for it. */
  connect(config: AgentConfig, options: AgentConnectionOptions): AgentConnection {
    const key = setupKey(config, options);
    const running = this.live.get(key);
    if (running?.joinable) return running;
    const connection = new AgentConnection(config, options);
    this.live.set(key, connection);
    return connection;
  }

  /** A fresh process of `agentName` opened its first session: the sessions left exited may come back. */
  announceRevived(agentName: string): void {
    this.events.emit('revived', agentName);
  }

  /** How many agent processes are running (for tests and the log). */
  get running(): number {
    this.forgetEnded();
    return this.live.size;
  }

  /** Deactivation: no agent process outlives the extension. */
  dispose(): void {
    for (const connection of this.live.values()) connection.killNow();
    this.live.clear();
    this.events.removeAllListeners();
  }

  private forgetEnded(): void {
    for (const [key, connection] of this.live) if (connection.exited) this.live.delete(key);
  }
}

/** What makes two processes differ; secrets in env stay in memory only (the key is never shown or logged). */
function setupKey(config: AgentConfig, options: AgentConnectionOptions): string {
  return JSON.stringify([
    config.name,
    config.command,
    config.args,
    Object.entries(config.env).sort(),
    options.cwd,
    options.protocolVersion,
  ]);
}
