/**
 * The host's copy of the chat's preview, drawn as the page's HTML (src/views/preview-file.ts, kept by
 * preview-file-keeper.ts): written as the shown conversation changes and when the extension goes, read back by the
 * first bundle after a reload (also from `<id>` when VS Code gave a stand-in `<id>-1` and the old window is letting
 * go), never through a link or when it is not the HTML our preview drawing makes.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { PREVIEW_FILE, readPreviewFile, writePreviewFile, type HostPreview } from '../../../src/views/preview-file';
import { PreviewFileKeeper } from '../../../src/views/preview-file-keeper';
import { PreviewFileWriter } from '../../../src/views/preview-file-writer';
import { previewHtml } from '../../../src/views/preview-html';
import { savedPreviewHtml } from '../../../src/views/restored-preview';
import { harnessedConversations } from '../../support/harnessed-conversations';
import type { HostHarness } from '../../support/host-harness';
import { tempRootPerTest } from '../history/temp-root';

const drawn = (text: string, conversationId = 'c1'): HostPreview => ({
  conversationId,
  html: previewHtml({
    conversationId,
    entries: [{ kind: 'message', key: 'msg:agent:1', role: 'agent', content: [{ type: 'text', text }] }],
    terminals: {},
  }),
});
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, trace: () => undefined };

describe("the host's copy of the chat's preview", function () {
  this.timeout(10_000);
  const root = tempRootPerTest();
  const harnesses: HostHarness[] = [];
  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.controller.stop();
  });

  /** `workspaceStorage/<folder>/<extension>`, made. */
  function storage(folder: string): string {
    const dir = path.join(root(), 'workspaceStorage', folder, 'acp-client.acp-client');
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  it('reads back what was written, whole; none once removed (a conversation with nothing to preview)', async () => {
    const dir = storage('abc');
    writePreviewFile(dir, drawn('first'));
    writePreviewFile(dir, drawn('second'));
    assert.deepEqual(await readPreviewFile(dir), drawn('second'));
    assert.deepEqual(readdirSync(dir), [PREVIEW_FILE], 'no temporary file left');
    writePreviewFile(dir, undefined);
    assert.equal(await readPreviewFile(dir), undefined);
  });

  it("in a stand-in folder <id>-1, reads <id>'s once the old window is letting go of it; not another live window's", async () => {
    writePreviewFile(storage('abc'), drawn('kept by the old window'));
    const lock = path.join(root(), 'workspaceStorage', 'abc', 'vscode.lock');
    // A live holder with no release scheduled: another window on the workspace (this process stands for it).
    writeFileSync(lock, JSON.stringify({ pid: process.pid, willReleaseAt: 0 }));
    assert.equal(await readPreviewFile(storage('abc-1')), undefined, "another window's conversation is not this one's");
    // The old window of a reload says when it will have let go: this window will take <id>, and its preview.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, willReleaseAt: Date.now() + 5_000 }));
    assert.deepEqual(await readPreviewFile(storage('abc-1')), drawn('kept by the old window'));
    rmSync(lock);
    assert.deepEqual(await readPreviewFile(storage('abc-1')), drawn('kept by the old window'), 'no holder at all');
    writePreviewFile(storage('abc-1'), drawn('its own', 'c2'));
    assert.equal((await readPreviewFile(storage('abc-1')))?.conversationId, 'c2', 'a window that wrote its own reads its own');
  });

  it('reads no link, no HTML our preview drawing did not make, nothing oversized', async () => {
    const dir = storage('abc');
    const elsewhere = path.join(root(), 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify(drawn('planted')));
    symlinkSync(elsewhere, path.join(dir, PREVIEW_FILE));
    assert.equal(await readPreviewFile(dir), undefined, 'a link is not followed');
    const other = storage('def');
    writeFileSync(path.join(other, PREVIEW_FILE), JSON.stringify({ conversationId: 'c1', html: '<img src=x onerror=alert(1)>' }));
    assert.equal(await readPreviewFile(other), undefined, 'not the preview drawing');
    writeFileSync(path.join(other, PREVIEW_FILE), JSON.stringify({ conversationId: 1, html: drawn('x').html }));
    assert.equal(await readPreviewFile(other), undefined, 'not the shape of one');
    writeFileSync(path.join(other, PREVIEW_FILE), JSON.stringify({ ...drawn('x'), padding: 'x'.repeat(300 * 1024) }));
    assert.equal(await readPreviewFile(other), undefined, 'over the size any preview has');
    writeFileSync(path.join(other, PREVIEW_FILE), '{"conversationId":');
    assert.equal(await readPreviewFile(other), undefined, 'half a file');
  });

  it("is the restored page's HTML before the page's saved preview, unless the page says that conversation was scrolled up", async () => {
    const dir = storage('abc');
    const host = drawn('newer, from the host');
    writePreviewFile(dir, host);
    const saved = (atBottom: boolean): unknown => ({
      current: 'c1',
      conversations: [{ id: 'c1', ui: { scroll: { atBottom } } }],
      preview: {
        conversationId: 'c1',
        entries: [{ kind: 'message', key: 'msg:agent:1', role: 'agent', content: [{ type: 'text', text: 'older, the page' }] }],
        terminals: {},
      },
    });
    assert.equal(await savedPreviewHtml(undefined, dir), host.html, 'VS Code kept no state for the page');
    assert.equal(await savedPreviewHtml(saved(true), dir), host.html, "the host's is as new as its transcript");
    assert.equal(await savedPreviewHtml(saved(false), dir), '', 'scrolled up: the view reopens where it was');
    assert.match(await savedPreviewHtml(saved(true), storage('empty')), /older, the page/, "no file: the page's own");
    assert.equal(await savedPreviewHtml(undefined, storage('empty')), '', 'neither: none');
  });

  it('is kept, drawn and escaped, as the shown conversation changes, follows a switch, and is written once more when disposed', async () => {
    const dir = storage('abc');
    const conversations = harnessedConversations(root(), harnesses, silent);
    const first = await conversations.create(undefined);
    const keeper = new PreviewFileKeeper(conversations, dir, silent);
    await keeper.drawing;
    assert.equal(await readPreviewFile(dir), undefined, 'an empty conversation has none');
    first.store.dispatch({ type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'first <img src=x onerror=alert(1)>' }] });
    assert.equal(await readPreviewFile(dir), undefined, 'within a second of the last write: not yet');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const written = (await readPreviewFile(dir))?.html ?? '';
    assert.match(written, /first &lt;img/, 'the change that waited, a second after the last write, escaped');
    assert.doesNotMatch(written, /<img/);
    first.store.dispatch({ type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' });
    first.store.dispatch({ type: 'prompt_sent', turnId: 't2', content: [{ type: 'text', text: 'second question' }] });
    assert.doesNotMatch((await readPreviewFile(dir))?.html ?? '', /second question/, 'at most once a second');
    keeper.dispose();
    assert.match((await readPreviewFile(dir))?.html ?? '', /second question/, 'the last change, as the extension goes');

    const again = new PreviewFileKeeper(conversations, dir, silent);
    await again.drawing;
    const second = await conversations.create(undefined);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal(await readPreviewFile(dir), undefined, 'another conversation shown, with nothing in it yet');
    second.store.dispatch({ type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'in the second' }] });
    again.dispose();
    assert.equal((await readPreviewFile(dir))?.conversationId, second.id);
  });

  describe('written while the extension runs', () => {
    const outcomes = (): { failures: unknown[]; written: () => void; failed: (error: unknown) => void } => {
      const failures: unknown[] = [];
      return { failures, written: () => undefined, failed: (error) => void failures.push(error) };
    };
    /** Until the writer has nothing under way (its writes go through the thread pool). */
    const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 200));

    it("off the extension host's thread: nothing is on disk when write returns, the newest of a burst is once settled", async () => {
      const dir = storage('abc');
      const outcome = outcomes();
      const writer = new PreviewFileWriter(dir, outcome);
      writer.write(drawn('first'));
      assert.equal(await readPreviewFile(dir), undefined, 'not written on the thread that asked');
      writer.write(drawn('second'));
      writer.write(drawn('third'));
      await settled();
      assert.deepEqual(await readPreviewFile(dir), drawn('third'));
      assert.deepEqual(readdirSync(dir), [PREVIEW_FILE], 'no temporary file left');
      writer.write(drawn('fourth'));
      writer.write(undefined);
      await settled();
      assert.equal(await readPreviewFile(dir), undefined, 'a removal asked for last is not undone by the write before it');
      assert.deepEqual(outcome.failures, []);
    });

    it('as the extension goes: the newest is on disk when finish returns, and a write still under way does not replace it', async () => {
      const dir = storage('abc');
      const writer = new PreviewFileWriter(dir, outcomes());
      writer.write(drawn('older, under way'));
      writer.write(drawn('newest'));
      writer.finish();
      assert.deepEqual(await readPreviewFile(dir), drawn('newest'), 'written before finish returned');
      writer.write(drawn('after it went'));
      await settled();
      assert.deepEqual(await readPreviewFile(dir), drawn('newest'), 'still the newest once the pool is done');
      assert.deepEqual(readdirSync(dir), [PREVIEW_FILE], 'no temporary file left');
    });

    it('a folder it cannot write in is reported, and the next write goes on', async () => {
      const dir = storage('abc');
      const outcome = outcomes();
      const gone = path.join(dir, 'gone');
      const writer = new PreviewFileWriter(gone, outcome);
      writer.write(drawn('nowhere to go'));
      await settled();
      assert.equal(outcome.failures.length, 1);
      mkdirSync(gone);
      writer.write(drawn('now there is'));
      await settled();
      assert.deepEqual(await readPreviewFile(gone), drawn('now there is'));
    });
  });
});
