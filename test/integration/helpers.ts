/** Shared steps of the integration suites: configure a scripted agent, reach the extension's API, wait on state. */
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { Entry, ToolCallEntry, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { scriptedAgentPath } from '../support/repo-root';

/** The test workspace's folder on disk (a copy of test/fixtures/workspace). */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return folder.uri.fsPath;
}

export async function api(): Promise<AcpClientTestApi> {
  const extension = vscode.extensions.getExtension<AcpClientTestApi>('acp-client.acp-client');
  if (!extension) throw new Error('extension not found');
  return extension.activate();
}

/** An `acpClient.agents` entry, as a user writes it. */
export interface AgentConfig {
  command: string;
  args: string[];
  env?: Record<string, string>;
  protocolVersion?: 1 | 2 | 'auto';
}

/**
 * Makes `name` the only configured agent and starts a fresh session with it. An agent that exits while starting,
 * or refuses the session (an error notice), fails here at once with what the chat shows about it (exit code,
 * stderr, the error), not with a bare timeout.
 */
export async function useAgent(name: string, agent: AgentConfig, timeoutMs = 20_000): Promise<AcpClientTestApi> {
  const config = vscode.workspace.getConfiguration('acpClient');
  await config.update('agents', { [name]: agent }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', name, vscode.ConfigurationTarget.Global);
  const client = await api();
  // Each test its own conversation; the agents of earlier ones need not run on beside it.
  await client.stopAgents();
  await vscode.commands.executeCommand('acpClient.newSession');
  const failed = (s: TranscriptState): boolean =>
    s.agent.phase === 'exited' || entriesOf(s).some((entry) => entry.kind === 'notice' && entry.severity === 'error');
  const state = await waitFor(client, (s) => s.agent.phase === 'ready' || failed(s), timeoutMs);
  if (state.agent.phase !== 'ready' || failed(state)) {
    const notices = entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [`${entry.title}\n${entry.detail ?? ''}`] : []));
    throw new Error(`agent ${name} did not start (${JSON.stringify(state.agent)}):\n${notices.join('\n')}`);
  }
  return client;
}

/** Configures the scripted agent with a scenario and starts a fresh session with it. */
export function useScriptedAgent(scenario: string, env: Record<string, string> = {}): Promise<AcpClientTestApi> {
  return useAgent('Scripted', { command: process.execPath, args: [scriptedAgentPath()], env: { ACP_SCENARIO: scenario, ...env } });
}

export function waitFor(
  client: AcpClientTestApi,
  predicate: (state: TranscriptState) => boolean,
  timeoutMs = 20_000,
): Promise<TranscriptState> {
  return new Promise((resolve, reject) => {
    if (predicate(client.transcript())) return resolve(client.transcript());
    const timer = setTimeout(() => {
      subscription.dispose();
      const state = client.transcript();
      const facts = JSON.stringify({
        agent: state.agent,
        turn: state.turn,
        queued: state.queued?.length ?? 0,
        conversation: client.shownConversation(),
      });
      reject(new Error(`timed out; ${facts}; transcript (its end): ${JSON.stringify(entriesOf(state)).slice(-2500)}`));
    }, timeoutMs);
    const subscription = client.onDidChangeTranscript((state) => {
      if (!predicate(state)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(state);
    });
  });
}

export const textOf = (entry: Entry | undefined): string =>
  entry?.kind === 'message' ? entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : '';

export const toolCall = (state: TranscriptState, id: string): ToolCallEntry | undefined =>
  entriesOf(state).find((entry): entry is ToolCallEntry => entry.kind === 'tool_call' && entry.toolCallId === id);

/** The newest tool call whose id starts with `idPrefix` (the mock Messages API numbers a conversation's later writes). */
export const latestToolCall = (state: TranscriptState, idPrefix: string): ToolCallEntry | undefined =>
  entriesOf(state)
    .filter((entry): entry is ToolCallEntry => entry.kind === 'tool_call' && entry.toolCallId.startsWith(idPrefix))
    .at(-1);

export const turnEnded = (state: TranscriptState): boolean =>
  state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end');

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `work`, or an error naming the step once `ms` passed: a step that hangs says which it was, not only mocha's timeout. */
export async function within<T>(ms: number, step: string, work: Thenable<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step}: no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([Promise.resolve(work), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The prompt blocks the `echo` scenario reports it received in the latest turn (see scenarios/echo.ts). */
export function echoedPrompt(state: TranscriptState): unknown[] {
  const answer = entriesOf(state)
    .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
    .pop();
  const match = /```json\n(.*)\n```/s.exec(textOf(answer));
  if (!match?.[1]) throw new Error(`no echoed prompt in ${textOf(answer).slice(0, 500)}`);
  const blocks: unknown = JSON.parse(match[1]);
  if (!Array.isArray(blocks)) throw new Error('the echoed prompt is not a list of blocks');
  return blocks;
}
