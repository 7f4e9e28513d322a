/**
 * The editor's own MCP server in the real VS Code, called by the real Claude Code ACP agent (mock Anthropic API):
 * the mock makes the agent call the `editor` server's tools, and what VS Code's built-in language features say
 * (the JSON validator's diagnostic, TypeScript's definition and references) reaches the model in the tool result.
 * A scripted agent that advertises no HTTP MCP support starts as before (it is offered the stdio bridge).
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { ChangeSetEntry, ToolCallEntry, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import type { AttackCase } from '../support/attack-case';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { sleep, turnEnded, useAgent, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

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

/** The agent's latest call of an editor tool (the mock's id is `toolu_mock_<tool>`, suffixed after a first request). */
const latestCall = (state: TranscriptState, tool: string, from = 0): ToolCallEntry | undefined =>
  entriesOf(state)
    .slice(from)
    .reverse()
    .find(
      (entry): entry is ToolCallEntry =>
        entry.kind === 'tool_call' && (entry.toolCallId === `toolu_mock_${tool}` || entry.toolCallId.startsWith(`toolu_mock_${tool}_`)),
    );

/** Runs one `call editor <tool> <input>` turn; answers the permission question with "Yes" if Claude Code asks. */
async function callTool(client: AcpClientTestApi, tool: string, input: Record<string, unknown>): Promise<void> {
  // This turn's call only: an earlier turn's call of the same tool is completed already.
  const from = client.transcript().entryCount;
  assert.deepEqual(await client.sendPrompt(`call editor ${tool} ${JSON.stringify(input)}`), { accepted: true });
  const settled = (state: TranscriptState): boolean => {
    const status = latestCall(state, tool, from)?.status;
    return status === 'awaiting_permission' || status === 'completed' || status === 'failed' || turnEnded(state);
  };
  const state = await waitFor(client, settled, 60_000);
  if (latestCall(state, tool, from)?.status === 'awaiting_permission') {
    await sleep(500);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  await waitFor(client, turnEnded, 60_000);
}

/** The editor's own card for one of its actions (a tool call of its own, id `editor-<tool>-<n>`). */
const editorCard = (state: TranscriptState, tool: string): ToolCallEntry | undefined =>
  [...entriesOf(state)]
    .reverse()
    .find((entry): entry is ToolCallEntry => entry.kind === 'tool_call' && entry.toolCallId.startsWith(`editor-${tool}-`));

/**
 * Sends `call editor <tool> <input>` and answers Claude Code's own permission question for the MCP tool ("Yes"),
 * then waits until the editor's card asks (or the turn ends without asking). Returns the transcript then.
 */
async function untilEditorAsks(
  client: AcpClientTestApi,
  mock: MockAnthropic,
  tool: string,
  input: Record<string, unknown>,
): Promise<TranscriptState> {
  const from = client.transcript().entryCount;
  const asks = (state: TranscriptState): boolean => editorCard(state, tool)?.status === 'awaiting_permission';
  const claudeAsks = (state: TranscriptState): boolean => latestCall(state, tool, from)?.status === 'awaiting_permission';
  assert.deepEqual(await client.sendPrompt(`call editor ${tool} ${JSON.stringify(input)}`), { accepted: true });
  let state = await waitFor(client, (s) => claudeAsks(s) || asks(s) || turnEnded(s), 60_000);
  if (claudeAsks(state)) {
    await sleep(500);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    state = await waitFor(client, (s) => asks(s) || turnEnded(s), 60_000);
  }
  assert.equal(
    editorCard(state, tool)?.status,
    'awaiting_permission',
    `the editor's card asks; what the agent was told: ${toolResultsSent(mock).slice(-1500)}`,
  );
  return state;
}

/** Answers the editor's card as a click on its button posts it, and waits for the turn's end. */
async function answerCard(client: AcpClientTestApi, card: ToolCallEntry | undefined, optionId: 'allow' | 'reject'): Promise<void> {
  client.postFromChat({ type: 'permission_answer', requestId: card!.permission!.requestId, optionId });
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
  let client: AcpClientTestApi;
  const root = (): string => workspaceRoot();
  const broken = (): string => path.join(root(), 'editor-tools-broken.json');
  const project = (): string => path.join(root(), 'editor-tools-ts');

  before(async () => {
    writeFileSync(broken(), '{ "name": "x" "version": 1 }\n');
    mkdirSync(project(), { recursive: true });
    writeFileSync(path.join(project(), 'greet.ts'), 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');
    writeFileSync(path.join(project(), 'main.ts'), "import { greet } from './greet';\n\ngreet('a');\ngreet('b');\n");
    // A project as users have one: without a tsconfig TypeScript knows only the files in tabs, and would rename
    // greet.ts alone. Written here, long before any turn: written just before the rename's turn, its watcher event
    // once arrived during the turn and the change card listed it as the turn's ("created").
    writeFileSync(path.join(project(), 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['*.ts'] }));
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

  // The rename is an action: Claude Code asks its own permission for the MCP tool, then the editor asks the user on
  // a card of its own in this conversation (the same buttons and dialog), and only Allow makes the change.
  it('rename_symbol asks on the permission card with the files and counts; Allow renames across files and the change card lists them', async () => {
    const main = path.join(project(), 'main.ts');
    const greet = path.join(project(), 'greet.ts');
    await warmLanguage(path.join(project(), 'warm.ts'), "const warmth: number = 'x';\nexport {};\n");
    const before = client.transcript().entryCount;
    const state = await untilEditorAsks(client, mock!, 'rename_symbol', { path: greet, line: 1, column: 17, newName: 'welcome' });
    const card = editorCard(state, 'rename_symbol');
    assert.equal(card?.title, 'Rename to "welcome": 4 edits in 2 files');
    assert.deepEqual(
      card?.permission?.options.map((option) => option.name),
      ['Allow', 'Reject'],
    );
    assert.deepEqual(card?.locations.map((location) => location.path).sort(), [greet, main].sort());
    assert.ok(readFileSync(main, 'utf8').includes('greet('), 'nothing renamed before the answer');
    await answerCard(client, card, 'allow');
    assert.equal(readFileSync(greet, 'utf8'), 'export function welcome(name: string): string {\n  return `hi ${name}`;\n}\n');
    assert.equal(readFileSync(main, 'utf8'), "import { welcome } from './greet';\n\nwelcome('a');\nwelcome('b');\n");
    const sent = toolResultsSent(mock!);
    assert.ok(sent.includes('\\"renamedTo\\":\\"welcome\\"'), `the agent is told: ${sent.slice(-1500)}`);
    assert.ok(sent.includes(`{\\"path\\":\\"${main}\\",\\"edits\\":3}`), `main.ts with its 3 edits: ${sent.slice(-1500)}`);
    assert.equal(editorCard(client.transcript(), 'rename_symbol')?.status, 'completed');
    const changes = await waitFor(
      client,
      (s) =>
        entriesOf(s)
          .slice(before)
          .some((entry) => entry.kind === 'changes' && entry.files.length >= 2),
      20_000,
    ).catch(() => client.transcript());
    const changeCard = entriesOf(changes)
      .slice(before)
      .find((entry): entry is ChangeSetEntry => entry.kind === 'changes');
    assert.deepEqual(
      changeCard?.files.map((file) => file.path).sort(),
      [greet, main].sort(),
      `the change card: ${JSON.stringify(changeCard?.files)}`,
    );
  });

  // The rename above left `welcome`; here the user is mid-edit in greet.ts when the agent asks for another rename.
  const unsavedAttack: AttackCase = {
    attack: 'the agent renames a symbol in a file that holds the user’s unsaved edits',
    driven: 'real VS Code, real Claude Code on the mock API: greet.ts is dirty in an editor, rename_symbol is called',
    sees: 'refused with the file named before anyone is asked; the user’s unsaved text and both files on disk unchanged',
  };
  it(`attack: ${unsavedAttack.attack}`, async () => {
    const main = path.join(project(), 'main.ts');
    const greet = path.join(project(), 'greet.ts');
    const onDisk = { greet: readFileSync(greet, 'utf8'), main: readFileSync(main, 'utf8') };
    // The browser workbench saves after a second by default; a desktop user's (and this attack's) edit stays unsaved.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(greet), { preview: false });
    assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(3, 0), '// the user is typing\n')), 'the user’s edit is made');
    assert.ok(editor.document.isDirty, 'greet.ts is dirty before the agent asks');
    try {
      const before = client.transcript().entryCount;
      await callTool(client, 'rename_symbol', { path: greet, line: 1, column: 17, newName: 'hijacked' });
      const sent = toolResultsSent(mock!);
      assert.ok(
        sent.includes('unsaved changes in the editor'),
        `the agent is told why: ${sent.slice(-600)}; transcript: ${JSON.stringify(entriesOf(client.transcript()).slice(before)).slice(-2500)}`,
      );
      assert.equal(
        entriesOf(client.transcript())
          .slice(before)
          .find((entry) => entry.kind === 'tool_call' && entry.toolCallId.startsWith('editor-rename_symbol-')),
        undefined,
        'no card asked the user',
      );
      assert.ok(editor.document.isDirty, 'the user’s edit is still unsaved');
      assert.match(editor.document.getText(), /\/\/ the user is typing\n$/);
      assert.ok(!editor.document.getText().includes('hijacked'));
      assert.deepEqual({ greet: readFileSync(greet, 'utf8'), main: readFileSync(main, 'utf8') }, onDisk);
    } finally {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('apply_quick_fix: TypeScript’s fix for a missing name is offered, asked on the card, and Allow applies it', async () => {
    const file = path.join(project(), 'fixme.ts');
    writeFileSync(file, 'export function run(): number {\n  return missing(2);\n}\n');
    await warmLanguage(path.join(project(), 'warm.ts'), "const warmth: number = 'x';\nexport {};\n");
    const title = "Add missing function declaration 'missing'";
    const state = await untilEditorAsks(client, mock!, 'apply_quick_fix', { path: file, line: 2, column: 10, title });
    assert.equal(editorCard(state, 'apply_quick_fix')?.title, `Apply the quick fix "${title}": 1 edit in 1 file`);
    assert.ok(!readFileSync(file, 'utf8').includes('function missing'), 'nothing applied before the answer');
    await answerCard(client, editorCard(state, 'apply_quick_fix'), 'allow');
    assert.match(readFileSync(file, 'utf8'), /function missing\(/);
    assert.ok(toolResultsSent(mock!).includes(`\\"applied\\":\\"${title}\\"`), toolResultsSent(mock!).slice(-1500));
  });

  it('run_task: the card asks first; Allow runs the task from tasks.json and the agent gets its exit code', async () => {
    const tasksFile = path.join(root(), '.vscode', 'tasks.json');
    mkdirSync(path.dirname(tasksFile), { recursive: true });
    const marker = path.join(root(), 'editor-tools-task-ran.txt');
    const tasks = {
      version: '2.0.0',
      tasks: [{ label: 'acp-exit-3', type: 'shell', command: `echo ran > '${marker}'; exit 3`, presentation: { reveal: 'never' } }],
    };
    writeFileSync(tasksFile, JSON.stringify(tasks));
    try {
      // As a user saves tasks.json and then asks: VS Code reads the file behind a watcher, so the task is known to
      // it a moment after the write (and the first listing starts the task-detecting extensions, which is slow on
      // a loaded machine). Until VS Code lists it, run_task rightly answers that there is no such task.
      const start = Date.now();
      while (!(await vscode.tasks.fetchTasks()).some((task) => task.name === 'acp-exit-3') && Date.now() - start < 30_000) await sleep(250);
      const state = await untilEditorAsks(client, mock!, 'run_task', { name: 'acp-exit-3' });
      assert.equal(editorCard(state, 'run_task')?.title, 'Run the task "acp-exit-3"');
      const shown = JSON.stringify(editorCard(state, 'run_task')?.content ?? []);
      assert.ok(shown.includes(`defined by the workspace’s tasks.json and runs: echo ran > '${marker}'; exit 3`), shown);
      assert.ok(!existsSync(marker), 'the task has not run before the answer');
      await answerCard(client, editorCard(state, 'run_task'), 'allow');
      assert.ok(existsSync(marker), 'the task ran');
      const sent = toolResultsSent(mock!);
      assert.ok(sent.includes('{\\"task\\":\\"acp-exit-3\\",\\"exitCode\\":3}'), sent.slice(-1500));
    } finally {
      rmSync(tasksFile, { force: true });
      rmSync(marker, { force: true });
    }
  });

  it('an agent without HTTP MCP support starts and answers as before', async () => {
    const scripted = await useScriptedAgent('echo');
    assert.deepEqual(await scripted.sendPrompt('hello'), { accepted: true });
    await waitFor(scripted, turnEnded, 30_000);
    assert.equal(scripted.transcript().agent.phase, 'ready');
  });
});
