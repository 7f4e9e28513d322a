/**
 * The verbose wire trace (`acpClient.trace: verbose`) against every kind of secret, on real agent processes: no
 * secret value reaches the log, in what we send (`session/new`, `session/load`, `session/resume`, `session/fork`
 * params) or in what the agent says back. `authenticate` carries only a method id, and no elicitation field is
 * marked secret in the schema, so neither has a value to mask.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AgentConfig } from '../../../src/agents/agent-config';
import { mcpServersForAgent } from '../../../src/agents/mcp-for-agent';
import { parseMcpServers } from '../../../src/agents/mcp-servers';
import { ElicitationBroker } from '../../../src/client/elicitation-broker';
import { FileSystemHandler } from '../../../src/client/fs-handler';
import { PermissionBroker } from '../../../src/client/permission-broker';
import { AgentConnection } from '../../../src/session/agent-connection';
import { AgentSession } from '../../../src/session/agent-session';
import type { AttackCase } from '../../support/attack-case';
import { MemoryEditorFiles, RecordingElicitationPorts, scriptedAgent, ScriptedPermissionPrompt } from '../../support/host-harness';
import { sessionsAgent } from '../../support/sessions-agent';

/** Values of the host's environment that `${env:NAME}` reads. */
const HOST_ENV: Record<string, string> = { GH_TOKEN: 'ghp-env-token-71c2', SHORT: 'k9', API_URL_KEY: 'urlkey-55d0e1' };
const INPUT = 'input-secret-3b8a';

interface TraceAttack extends AttackCase {
  readonly secrets: readonly string[];
  /** MCP servers as the user's settings write them. */
  readonly mcpServers?: Record<string, unknown>;
  readonly agent: (cleanup: (dispose: () => void) => void) => AgentConfig;
  /** Opens the session the way the attack needs; the traced request it sends is `method`. */
  readonly open: (session: AgentSession) => Promise<unknown>;
  readonly method: string;
}

const reportingAgent = (): AgentConfig => scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http,sse' });
const lifecycleAgent =
  (features: readonly string[]) =>
  (cleanup: (dispose: () => void) => void): AgentConfig => {
    const agent = sessionsAgent(features);
    cleanup(() => agent.dispose());
    return agent.config;
  };
const LOADED = { stdio: { command: '/usr/bin/mcp', args: ['--token', '${env:GH_TOKEN}'], env: { KEY: 'literal-env-secret-1' } } };

const attacks: readonly TraceAttack[] = [
  {
    attack: 'literal secret in an MCP stdio server env value',
    driven: 'verbose trace of session/new to a real agent, which echoes the servers back',
    sees: 'the value as "***" in the Output channel; names, command and args readable',
    secrets: ['literal-env-secret-1'],
    mcpServers: { files: { command: '/usr/bin/mcp-files', env: { API_KEY: 'literal-env-secret-1' } } },
    agent: reportingAgent,
    open: (session) => session.start(),
    method: 'session/new',
  },
  {
    attack: 'literal secret in an MCP http header value',
    driven: 'verbose trace of session/new to a real agent, which echoes the servers back',
    sees: 'the header value as "***"; the header name readable',
    secrets: ['Bearer literal-header-2'],
    mcpServers: { docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer literal-header-2' } } },
    agent: reportingAgent,
    open: (session) => session.start(),
    method: 'session/new',
  },
  {
    attack: '${env:} secret in an MCP env value, short and long',
    driven: 'verbose trace of session/new with values resolved from the host environment',
    sees: 'both values masked',
    secrets: ['ghp-env-token-71c2', '"k9"'],
    mcpServers: { files: { command: '/usr/bin/mcp-files', env: { TOKEN: '${env:GH_TOKEN}', PIN: '${env:SHORT}' } } },
    agent: reportingAgent,
    open: (session) => session.start(),
    method: 'session/new',
  },
  {
    attack: '${env:} secret in an MCP stdio server argument',
    driven: 'verbose trace of session/new: args ["--token", "${env:GH_TOKEN}"] and "--key=${env:API_URL_KEY}"',
    sees: 'the resolved arguments masked',
    secrets: ['ghp-env-token-71c2', 'urlkey-55d0e1'],
    mcpServers: { files: { command: '/usr/bin/mcp-files', args: ['--token', '${env:GH_TOKEN}', '--key=${env:API_URL_KEY}'] } },
    agent: reportingAgent,
    open: (session) => session.start(),
    method: 'session/new',
  },
  {
    attack: '${env:} secret in an MCP http server URL',
    driven: 'verbose trace of session/new: url https://docs.example/mcp?key=${env:API_URL_KEY}',
    sees: 'the key masked in the URL',
    secrets: ['urlkey-55d0e1'],
    mcpServers: { docs: { type: 'http', url: 'https://docs.example/mcp?key=${env:API_URL_KEY}' } },
    agent: reportingAgent,
    open: (session) => session.start(),
    method: 'session/new',
  },
  {
    attack: '${input:} secret inside a header and an argument',
    driven: 'verbose trace of session/new with a value from the secret store',
    sees: 'the header and the argument masked',
    secrets: [INPUT],
    mcpServers: {
      docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer ${input:key}' } },
      files: { command: '/usr/bin/mcp-files', args: ['--key=${input:key}'] },
    },
    agent: reportingAgent,
    open: (session) => session.start(),
    method: 'session/new',
  },
  {
    attack: 'MCP secrets in session/load params',
    driven: 'verbose trace of session/load to the real lifecycle fixture agent',
    sees: 'env and ${env:} argument values masked',
    secrets: ['literal-env-secret-1', 'ghp-env-token-71c2'],
    mcpServers: LOADED,
    agent: lifecycleAgent(['load']),
    open: (session) => session.start({ kind: 'load', sessionId: 'stored-1', replay: 'suppress' }),
    method: 'session/load',
  },
  {
    attack: 'MCP secrets in session/resume params',
    driven: 'verbose trace of session/resume to the real lifecycle fixture agent',
    sees: 'env and ${env:} argument values masked',
    secrets: ['literal-env-secret-1', 'ghp-env-token-71c2'],
    mcpServers: LOADED,
    agent: lifecycleAgent(['resume']),
    open: (session) => session.start({ kind: 'resume', sessionId: 'stored-1' }),
    method: 'session/resume',
  },
  {
    attack: 'MCP secrets in session/fork params',
    driven: 'verbose trace of session/fork to the real lifecycle fixture agent',
    sees: 'env and ${env:} argument values masked',
    secrets: ['literal-env-secret-1', 'ghp-env-token-71c2'],
    mcpServers: LOADED,
    agent: lifecycleAgent(['fork']),
    open: async (session) => {
      await session.start();
      return session.forkSession();
    },
    method: 'session/fork',
  },
  {
    attack: 'the agent quotes its own API key (agent env, as stored at sign-in) back',
    driven: 'a real agent started with SCRIPTED_API_KEY in its env says it in a session/update',
    sees: 'the key masked in the traced notification',
    secrets: ['sk-stored-key-8e21f0'],
    agent: () => scriptedAgent('echo', { SCRIPTED_API_KEY: 'sk-stored-key-8e21f0', ACP_ECHO_ENV: 'SCRIPTED_API_KEY' }),
    open: (session) => session.start(),
    method: 'session/new',
  },
];

describe('trace redaction of every secret kind (verbose trace, real agents)', function () {
  this.timeout(20_000);
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  for (const row of attacks)
    it(`attack: ${row.attack}`, async () => {
      const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-trace-')));
      cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
      const config = row.agent((dispose) => cleanups.push(dispose));
      const parsed = parseMcpServers(row.mcpServers ?? {}, 'acpClient.mcpServers');
      assert.deepEqual(parsed.problems, []);
      const { servers } = await mcpServersForAgent(config, parsed.servers, {
        env: (name) => HOST_ENV[name],
        inputs: { value: () => Promise.resolve(INPUT) },
      });
      const lines: string[] = [];
      const keep = (line: string): void => void lines.push(line);
      const log = { info: keep, warn: keep, error: keep, trace: keep };
      const connection = new AgentConnection(config, { cwd, protocolVersion: 1, log, trace: 'verbose', clientVersion: 'test' });
      const session = new AgentSession(connection, {
        roots: () => [cwd],
        log,
        mcpServers: servers,
        files: new FileSystemHandler(new MemoryEditorFiles(cwd), () => undefined),
        permissions: new PermissionBroker(new ScriptedPermissionPrompt(undefined)),
        elicitations: new ElicitationBroker(new RecordingElicitationPorts()),
        hooks: { onAction: () => undefined, toolCallShown: () => undefined, onExit: () => undefined },
      });
      cleanups.push(async () => {
        if (!session.exited) await session.stop();
      });
      await row.open(session);
      // What the agent says right after the session opens (the echo) is traced too.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const sent = lines.find((line) => line.includes(`Sending request '${row.method}`));
      assert.ok(sent, `${row.method} is traced`);
      assert.ok(lines.join('\n').includes('***'), 'something was masked');
      for (const secret of row.secrets)
        for (const line of lines) assert.ok(!line.includes(secret), `${secret} shows in the trace:\n${line}`);
    });
});
