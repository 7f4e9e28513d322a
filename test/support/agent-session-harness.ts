/**
 * One AgentSession on a real agent process, without the controller: the editor ports are in-memory, and what
 * the agent does to the transcript (the `onAction` hook) and what is logged are recorded for the test.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AgentConfig } from '../../src/agents/agent-config';
import { ElicitationBroker } from '../../src/client/elicitation-broker';
import { FileSystemHandler } from '../../src/client/fs-handler';
import { PermissionBroker } from '../../src/client/permission-broker';
import { AgentConnection } from '../../src/session/agent-connection';
import { AgentSession, type AgentAction } from '../../src/session/agent-session';
import { MemoryEditorFiles, RecordingElicitationPorts, ScriptedPermissionPrompt } from './host-harness';

export interface AgentSessionHarness {
  readonly session: AgentSession;
  /** The agent's cwd (a fresh temp dir, real path: the agent compares it with its own `process.cwd()`). */
  readonly cwd: string;
  readonly actions: AgentAction[];
  readonly logLines: string[];
  dispose(): Promise<void>;
}

/** `cwd`: a folder the caller owns (two agents on one project); by default a temp dir removed on dispose. */
export function startAgentSession(config: AgentConfig, cwd?: string): AgentSessionHarness {
  const ownCwd = cwd === undefined;
  const folder = cwd ?? realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-agent-session-')));
  const actions: AgentAction[] = [];
  const logLines: string[] = [];
  const keep = (line: string): void => void logLines.push(line);
  const log = { info: keep, warn: keep, error: keep, trace: keep };
  const connection = new AgentConnection(config, { cwd: folder, protocolVersion: 1, log, trace: 'off', clientVersion: 'test' });
  const session = new AgentSession(connection, {
    roots: () => [folder],
    log,
    files: new FileSystemHandler(new MemoryEditorFiles(folder), () => undefined),
    permissions: new PermissionBroker(new ScriptedPermissionPrompt(undefined)),
    elicitations: new ElicitationBroker(new RecordingElicitationPorts()),
    hooks: { onAction: (action) => actions.push(action), toolCallShown: () => undefined, onExit: () => undefined },
  });
  return {
    session,
    cwd: folder,
    actions,
    logLines,
    dispose: async () => {
      if (!session.exited) await session.stop();
      if (ownCwd) rmSync(folder, { recursive: true, force: true });
    },
  };
}
