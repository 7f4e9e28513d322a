/** The read cap end to end: a real scripted agent asks for files through the host path and reports the answers. */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { entriesOf } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';

const ended = (state: TranscriptState): boolean =>
  state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end');

async function agentReport(harness: HostHarness, read: { path: string; line?: number; limit?: number }): Promise<string> {
  await harness.controller.start(scriptedAgent('limits'));
  await harness.controller.sendPrompt(JSON.stringify({ read }));
  const answer = entriesOf(await harness.waitFor(ended)).find((entry) => entry.kind === 'message' && entry.role === 'agent');
  return answer?.kind === 'message' ? answer.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : '';
}

describe('fs/read_text_file read limit (real agent process)', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-read-limit-');
  const KB = 1024;

  it('answers a file within the cap whole', async () => {
    const file = path.join(suite.root, 'small.txt');
    writeFileSync(file, 'line\n'.repeat(100));
    assert.equal(await agentReport(suite.start({ maxReadBytes: 10 * KB }), { path: file }), 'read ok 500 chars, 100 lines');
  });

  it('refuses a file over the cap with an error naming its size, the cap and line/limit', async () => {
    const file = path.join(suite.root, 'big.txt');
    writeFileSync(file, 'z'.repeat(2 * 1024 * KB));
    const report = await agentReport(suite.start({ maxReadBytes: 1024 * KB }), { path: file });
    assert.match(
      report,
      /^read error -32602: .*big\.txt: the file is 2\.0 MB, over the client's read limit of 1\.0 MB \(setting acpClient\.limits\.maxReadMB\)\. Read it in parts with line and limit\.$/,
    );
  });

  it('serves a line/limit window of a file far over the cap', async () => {
    const file = path.join(suite.root, 'big.txt');
    writeFileSync(file, Array.from({ length: 100_000 }, (_, index) => `line ${index}\n`).join(''));
    const harness = suite.start({ maxReadBytes: 10 * KB });
    assert.equal(await agentReport(harness, { path: file, line: 50_001, limit: 3 }), 'read ok 33 chars, 3 lines');
  });

  it('refuses a line/limit window whose answer is over the cap', async () => {
    const file = path.join(suite.root, 'big.txt');
    writeFileSync(file, 'y'.repeat(100).concat('\n').repeat(1_000));
    const report = await agentReport(suite.start({ maxReadBytes: 10 * KB }), { path: file, line: 1, limit: 500 });
    assert.match(report, /^read error -32602: .*the requested lines are more than 10\.0 KB, over the client's read limit of 10\.0 KB/);
  });

  it('applies the cap to an open editor document (unsaved text) too', async () => {
    const file = path.join(suite.root, 'open.txt');
    writeFileSync(file, 'saved\n');
    const harness = suite.start({ maxReadBytes: 10 * KB });
    harness.files.unsaved.set(file, 'u'.repeat(20 * KB));
    assert.match(
      await agentReport(harness, { path: file }),
      /^read error -32602: .*the file is 20\.0 KB, over the client's read limit of 10\.0 KB/,
    );
  });
});
