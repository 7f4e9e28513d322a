/** The session lifecycle fixture agent (test/fixtures/agents/sessions-agent.ts) and the requests it recorded. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AgentConfig } from '../../src/agents/agent-config';
import { wholeNdjsonRecords } from './ndjson-file';
import { scriptedAgentPath } from './repo-root';

export interface SessionsAgent {
  readonly config: AgentConfig;
  /** The lifecycle requests that reached the agent, in order. */
  requests(): { method: string; params: Record<string, unknown> }[];
  /** Removes the request log. */
  dispose(): void;
}

/** `features`: the lifecycle methods it serves (load, resume, list, fork, close, delete, title). */
export function sessionsAgent(features: readonly string[], env: Record<string, string> = {}): SessionsAgent {
  // A folder per agent: the test files all run in one process, each bundled with its own module state.
  const folder = mkdtempSync(path.join(tmpdir(), 'acp-sessions-agent-'));
  const log = path.join(folder, 'requests.ndjson');
  return {
    config: {
      name: 'Sessions',
      command: process.execPath,
      args: [path.join(path.dirname(scriptedAgentPath()), 'sessions-agent.mjs')],
      env: { ACP_SESSION_FEATURES: features.join(','), ACP_SESSIONS_LOG: log, ...env },
    },
    requests: () => wholeNdjsonRecords(log).map((line) => JSON.parse(line) as { method: string; params: Record<string, unknown> }),
    dispose: () => rmSync(folder, { recursive: true, force: true }),
  };
}
