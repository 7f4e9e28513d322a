/**
 * What the chat keeps of a command's output follows the agent's `outputByteLimit`: a flood with a 1,000-byte limit
 * shows (and posts to the webview) a card's worth, not 64,000 characters redrawn four times a second on the
 * workbench's thread (test/integration/host-floods.test.ts).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TerminalManager } from '../../../src/client/terminal-manager';
import type { TranscriptAction } from '../../../src/shared/actions';
import { chunkText } from '../../../src/shared/coalesce';
import { initialState, reduce } from '../../../src/shared/reducer';
import { ActionPoster } from '../../../src/views/action-poster';
import type { HostToWebviewMessage } from '../../../src/shared/webview-protocol';

const LINE = 'flood lines of terminal output!\n';
/** 2 MB of lines, then the last one. */
const FLOOD = `const line = ${JSON.stringify(LINE)}.repeat(2048); for (let i = 0; i < 32; i++) process.stdout.write(line); process.stdout.write('flood-done\\n');`;

describe("a terminal's output in the chat follows the agent's limit", () => {
  let root: string;
  before(() => (root = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-term-keep-')))));
  after(() => rmSync(root, { recursive: true, force: true }));

  async function run(outputByteLimit: number | undefined): Promise<TranscriptAction[]> {
    const actions: TranscriptAction[] = [];
    const terminals = new TerminalManager(
      () => [root],
      () => root,
      {
        onOutput: (terminalId, text, keep) => actions.push({ type: 'terminal_output', terminalId, text, keep }),
        onExit: () => undefined,
      },
    );
    const { terminalId } = await terminals.create({ command: process.execPath, args: ['-e', FLOOD], outputByteLimit });
    await terminals.waitForExit(terminalId);
    terminals.release(terminalId);
    return actions;
  }

  const shown = (actions: readonly TranscriptAction[]) => {
    const state = actions.reduce(reduce, initialState());
    return Object.values(state.terminals)[0];
  };

  it('with outputByteLimit 1,000 the card keeps the newest 2,000 characters, marked trimmed, ending with the last line', async () => {
    const record = shown(await run(1_000));
    assert.ok(record);
    assert.ok(record.output.length <= 2_000, `${record.output.length} characters kept`);
    assert.ok(record.output.length >= 1_000, `${record.output.length} characters kept`);
    assert.ok(record.output.endsWith(`${LINE}flood-done\n`));
    assert.equal(record.trimmed, true);
  });

  it('without a limit the card keeps its 64,000 characters', async () => {
    const record = shown(await run(undefined));
    assert.equal(record?.output.length, 64_000);
    assert.ok(record?.output.endsWith('flood-done\n'));
  });

  it('a flood with a 1,000-byte limit is posted at the flood pace, each post a card-sized text', async () => {
    const actions = await run(1_000);
    const posted: HostToWebviewMessage[] = [];
    const poster = new ActionPoster((message) => {
      posted.push(message);
      return Promise.resolve();
    });
    // The command's output arrives over a second, a read every 4 ms, as a fast command's does.
    const started = performance.now();
    for (const action of actions) {
      poster.push(action);
      await new Promise((resolve) => setTimeout(resolve, 4));
      if (performance.now() - started > 1_000) break;
    }
    const spanMs = performance.now() - started;
    poster.flush();
    const texts = posted.flatMap((message) => (message.type === 'actions' ? message.actions.map((action) => chunkText(action) ?? '') : []));
    assert.ok(
      texts.every((text) => text.length <= 2_000),
      `post sizes ${texts.map((text) => text.length).join(', ')}`,
    );
    // At most one post per 250 ms window (and the first at once, the last flushed): four redraws a second.
    assert.ok(posted.length <= spanMs / 250 + 3, `${posted.length} posts in ${Math.round(spanMs)} ms`);
    poster.dispose();
  });
});
