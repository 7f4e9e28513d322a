/**
 * The editor's own MCP server in the real VS Code, called by the real Claude Code ACP agent (mock Anthropic API):
 * the mock makes the agent call the `editor` server's tools, and what VS Code's built-in language features say
 * (the JSON validator's diagnostic, TypeScript's definition and references) reaches the model in the tool result.
 * A scripted agent that advertises no HTTP MCP support starts as before (it is offered the stdio bridge).
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientApi } from '../../src/api';
import type { TranscriptState } from '../../src/shared/model';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { sleep, toolCall, turnEnded, useAgent, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

/** The text of every tool result the agent sent the model (in the mock's requests), in order. */
function toolResultsSent(mock: MockAnthropic): string {
  const texts: string[] = [];
  for (const request of mock.requests) {
    if (request.method !== 'POST' || !request.url.startsWith('/v1/messages')) continue;
    const body: unknown = JSON.parse(request.body);
    const messages = typeof body === 'object' && body !== null && 'messages' in body && Array.isArray(body.messages) ? body.messages : [];
    for (const message of messages as { content?: unknown }[])
      for (const block of Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : [])
        if (block['type'] === 'tool_result') texts.push(JSON.stringify(block['content']));
  }
  return texts.join('\n');
}

/** Runs one `call editor <tool> <input>` turn; answers the permission question with "Yes" if Claude Code asks. */
async function callTool(client: AcpClientApi, tool: string, input: Record<string, unknown>): Promise<void> {
  const id = `toolu_mock_${tool}`;
  assert.deepEqual(await client.sendPrompt(`call editor ${tool} ${JSON.stringify(input)}`), { accepted: true });
  const settled = (state: TranscriptState): boolean => {
    const status = toolCall(state, id)?.status;
    return status === 'awaiting_permission' || status === 'completed' || status === 'failed' || turnEnded(state);
  };
  const state = await waitFor(client, settled, 60_000);
  if (toolCall(state, id)?.status === 'awaiting_permission') {
    await sleep(500);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  await waitFor(client, turnEnded, 60_000);
}

/**
 * Starts a language's server the way a user does, by opening a file of that language with an error in an editor
 * until its diagnostic shows, then closes that tab: the tool's 10 s deadline is then not spent on the server's
 * start on a loaded 2-core machine. The file the tool is asked about stays in no tab.
 */
async function warmLanguage(file: string, text: string): Promise<void> {
  writeFileSync(file, text);
  await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
  const start = Date.now();
  while (vscode.languages.getDiagnostics(vscode.Uri.file(file)).length === 0 && Date.now() - start < 90_000) await sleep(500);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}

const inSomeTab = (file: string): boolean =>
  vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.fsPath === file),
  );

describe('the editor tools: a real agent calls VS Code’s language services over MCP', function () {
  this.timeout(180_000);
  let mock: MockAnthropic | undefined;
  let home: string | undefined;
  let client: AcpClientApi;
  const root = (): string => workspaceRoot();
  const broken = (): string => path.join(root(), 'editor-tools-broken.json');
  const project = (): string => path.join(root(), 'editor-tools-ts');

  before(async () => {
    writeFileSync(broken(), '{ "name": "x" "version": 1 }\n');
    mkdirSync(project(), { recursive: true });
    writeFileSync(path.join(project(), 'greet.ts'), 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');
    writeFileSync(path.join(project(), 'main.ts'), "import { greet } from './greet';\n\ngreet('a');\ngreet('b');\n");
    mock = await startMockAnthropic();
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;
    // Claude Code otherwise defers MCP tools behind its ToolSearch tool.
    const env = { ...agentEnv.env, ENABLE_TOOL_SEARCH: 'false' };
    client = await useAgent('Claude Code (mock API)', { command: process.execPath, args: [claudeAgentBin()], env }, 60_000);
  });

  after(async () => {
    await client?.stopAgents();
    await mock?.close();
    if (home) rmSync(home, { recursive: true, force: true });
    rmSync(broken(), { force: true });
    rmSync(path.join(root(), 'editor-tools-warm.json'), { force: true });
    rmSync(project(), { recursive: true, force: true });
  });

  // The file is in no tab: VS Code's JSON server pulls diagnostics only for documents in tabs, so the tool opens it.
  it('problems on a JSON file with a syntax error: VS Code’s diagnostic reaches the model in the tool result', async () => {
    await warmLanguage(path.join(root(), 'editor-tools-warm.json'), '{ "a": 1 "b": 2 }\n');
    assert.ok(!inSomeTab(broken()), 'the broken JSON is in no tab before the tool asks');
    await callTool(client, 'problems', { path: broken() });
    // What VS Code itself reports for the file (the tool opened it to get its diagnostics).
    const sent = toolResultsSent(mock!);
    const diagnostics = vscode.languages.getDiagnostics(vscode.Uri.file(broken()));
    assert.ok(diagnostics.length > 0, `VS Code has a diagnostic for the broken JSON; the tool result was: ${sent}`);
    for (const diagnostic of diagnostics)
      assert.ok(sent.includes(diagnostic.message), `"${diagnostic.message}" in the tool result: ${sent.slice(-2000)}`);
    assert.match(sent, /editor-tools-broken\.json/);
    assert.match(sent, /\\"severity\\":\\"error\\"/);
  });

  // main.ts is in no tab: TypeScript answers a hidden document from a syntax-only view (the definition of greet
  // would be main.ts's own import line), so the tool opens it before asking.
  it('definition and references on a small TypeScript project return the right locations', async () => {
    const main = path.join(project(), 'main.ts');
    const greet = path.join(project(), 'greet.ts');
    // tsserver starts with the first TypeScript tab: start it on another file of the project.
    await warmLanguage(path.join(project(), 'warm.ts'), "const warmth: number = 'x';\nexport {};\n");
    assert.ok(!inSomeTab(main), 'main.ts is in no tab before the tool asks');
    await callTool(client, 'definition', { path: main, line: 3, column: 2 });
    let sent = toolResultsSent(mock!);
    assert.ok(
      sent.includes(`{\\"path\\":\\"${greet}\\",\\"line\\":1,\\"column\\":17`),
      `the definition is greet.ts 1:17; sent: ${sent.slice(-1500)}`,
    );
    await callTool(client, 'references', { path: greet, line: 1, column: 17 });
    sent = toolResultsSent(mock!);
    for (const [line, column] of [
      [3, 1],
      [4, 1],
    ])
      assert.ok(
        sent.includes(`{\\"path\\":\\"${main}\\",\\"line\\":${line},\\"column\\":${column}`),
        `a reference at main.ts ${line}:${column}; sent: ${sent.slice(-1500)}`,
      );
  });

  it('an agent without HTTP MCP support starts and answers as before', async () => {
    const scripted = await useScriptedAgent('echo');
    assert.deepEqual(await scripted.sendPrompt('hello'), { accepted: true });
    await waitFor(scripted, turnEnded, 30_000);
    assert.equal(scripted.transcript().agent.phase, 'ready');
  });
});
