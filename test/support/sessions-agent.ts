/** The session lifecycle fixture agent (test/fixtures/agents/sessions-agent.ts) and the requests it recorded. */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AgentConfig } from '../../src/agents/agent-config';
import { scriptedAgentPath } from './repo-root';

export interface SessionsAgent {
  readonly config: AgentConfig;
  /** The lifecycle requests that reached the agent, in order. */
  requests(): { method: string; params: Record<string, unknown> }[];
}

let runs = 0;

/** `features`: the lifecycle methods it serves (load, resume, list, fork, close, delete, title). */
export function sessionsAgent(features: readonly string[], env: Record<string, string> = {}): SessionsAgent {
  const log = path.join(tmpdir(), `acp-sessions-agent-${process.pid}-${++runs}.ndjson`);
  return {
    config: {
      name: 'Sessions',
      command: process.execPath,
      args: [path.join(path.dirname(scriptedAgentPath()), 'sessions-agent.mjs')],
      env: { ACP_SESSION_FEATURES: features.join(','), ACP_SESSIONS_LOG: log, ...env },
    },
    requests: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { method: string; params: Record<string, unknown> })
        : [],
  };
}
