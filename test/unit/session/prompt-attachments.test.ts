/**
 * Prompt content from attachments, through the real host path to a real agent process (the `echo` scenario
 * answers with the blocks it received): links vs embedded resources by `embeddedContext`, the editor's unsaved
 * text, selections, files that cannot be embedded, and images/audio only when the agent advertised them.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_EMBEDDED_BYTES } from '../../../src/session/attachment-reader';
import type { Attachment } from '../../../src/shared/attachments';
import type { Entry, TranscriptState } from '../../../src/shared/model';
import { entriesOf } from '../../../src/shared/selectors';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';

const textOf = (entry: Entry | undefined): string =>
  entry?.kind === 'message' ? entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : '';
const ended = (state: TranscriptState): boolean =>
  state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end');

/** The blocks the echo agent says it received in the latest turn. */
function received(state: TranscriptState): unknown[] {
  const answer = entriesOf(state)
    .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
    .pop();
  const match = /```json\n(.*)\n```/s.exec(textOf(answer));
  assert.ok(match?.[1], `no echo in ${textOf(answer)}`);
  return JSON.parse(match[1]) as unknown[];
}

describe('prompt attachments against a real agent process', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-attach-');
  let harness: HostHarness | undefined;
  let helloPath: string;
  let hello: Attachment;

  beforeEach(() => {
    mkdirSync(path.join(suite.root, 'src'));
    helloPath = path.join(suite.root, 'src', 'hello.ts');
    writeFileSync(helloPath, 'line 1\nline 2\nline 3\nline 4\n');
    hello = { kind: 'file', uri: pathToFileURL(helloPath).href, label: 'src/hello.ts' };
  });

  async function turn(capabilities: string, text: string, attachments: readonly Attachment[]): Promise<TranscriptState> {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('echo', { ACP_PROMPT_CAPABILITIES: capabilities }));
    assert.deepEqual(await harness.controller.sendPrompt(text, attachments), { accepted: true });
    return harness.waitFor(ended);
  }

  it('embeds the file as the editor shows it, unsaved edits included, when the agent takes embedded context', async () => {
    harness = suite.start();
    harness.files.unsaved.set(helloPath, 'unsaved text\n');
    await harness.controller.start(scriptedAgent('echo', { ACP_PROMPT_CAPABILITIES: 'embeddedContext' }));
    await harness.controller.sendPrompt('explain @src/hello.ts', [hello]);
    const state = await harness.waitFor(ended);
    assert.deepEqual(received(state), [
      { type: 'text', text: 'explain @src/hello.ts' },
      { type: 'resource', resource: { uri: hello.kind === 'file' ? hello.uri : '', text: 'unsaved text\n' } },
    ]);
    const user = entriesOf(state).find((entry) => entry.kind === 'message' && entry.role === 'user');
    assert.equal(user?.kind === 'message' ? user.content.length : 0, 2, 'the transcript shows what was sent, attachment included');
  });

  it('sends a resource link when the agent does not take embedded context', async () => {
    const state = await turn('', 'look at this', [hello]);
    assert.deepEqual(received(state), [
      { type: 'text', text: 'look at this' },
      { type: 'resource_link', uri: pathToFileURL(helloPath).href, name: 'src/hello.ts' },
    ]);
  });

  it('sends only the selected lines, named by a line-range fragment', async () => {
    const selection: Attachment = {
      kind: 'file',
      uri: pathToFileURL(helloPath).href,
      label: 'src/hello.ts',
      range: { startLine: 2, endLine: 3 },
    };
    const embedded = await turn('embeddedContext', 'why?', [selection]);
    assert.deepEqual(received(embedded)[1], {
      type: 'resource',
      resource: { uri: `${pathToFileURL(helloPath).href}#L2-3`, text: 'line 2\nline 3\n' },
    });
    await harness?.controller.stop();
    const linked = await turn('', 'why?', [selection]);
    assert.deepEqual(received(linked)[1], {
      type: 'resource_link',
      uri: `${pathToFileURL(helloPath).href}#L2-3`,
      name: 'src/hello.ts:2-3',
    });
  });

  it('links files that cannot be embedded (binary, too large) and says so', async () => {
    const binaryPath = path.join(suite.root, 'logo.bin');
    writeFileSync(binaryPath, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]));
    const bigPath = path.join(suite.root, 'big.txt');
    writeFileSync(bigPath, 'x'.repeat(MAX_EMBEDDED_BYTES + 1));
    const state = await turn('embeddedContext', '', [
      { kind: 'file', uri: pathToFileURL(binaryPath).href, label: 'logo.bin' },
      { kind: 'file', uri: pathToFileURL(bigPath).href, label: 'big.txt' },
    ]);
    assert.deepEqual(
      received(state),
      [
        { type: 'resource_link', uri: pathToFileURL(binaryPath).href, name: 'logo.bin' },
        { type: 'resource_link', uri: pathToFileURL(bigPath).href, name: 'big.txt' },
      ],
      'a prompt of attachments alone carries no empty text block',
    );
    const notices = entriesOf(state)
      .filter((entry) => entry.kind === 'notice')
      .map((entry) => (entry.kind === 'notice' ? (entry.detail ?? '') : ''));
    assert.deepEqual(notices, [
      'logo.bin was sent as a link: it is not a text file',
      'big.txt was sent as a link: it is larger than 256 KB',
    ]);
  });

  it('sends images and audio only to an agent that advertises them', async () => {
    const image: Attachment = { kind: 'image', label: 'shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    const audio: Attachment = { kind: 'audio', label: 'note.wav', mimeType: 'audio/wav', data: 'UklGRg==' };
    harness = suite.start();
    await harness.controller.start(scriptedAgent('echo', { ACP_PROMPT_CAPABILITIES: 'embeddedContext' }));
    assert.deepEqual(await harness.controller.sendPrompt('see', [image]), {
      accepted: false,
      reason: 'Scripted does not accept images, so shot.png was not attached.',
    });
    assert.deepEqual(await harness.controller.sendPrompt('hear', [audio]), {
      accepted: false,
      reason: 'Scripted does not accept audio, so note.wav was not attached.',
    });
    assert.equal(entriesOf(harness.store.state).length, 0, 'nothing was sent, nothing shows as sent');
    await harness.controller.stop();

    const state = await turn('image,audio', 'see and hear', [image, audio]);
    assert.deepEqual(received(state), [
      { type: 'text', text: 'see and hear' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
    ]);
  });

  it('refuses an empty prompt with no attachments', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('echo'));
    assert.deepEqual(await harness.controller.sendPrompt('   ', []), { accepted: false, reason: 'The prompt is empty.' });
  });
});
