/**
 * A multi-root workspace through the whole host path to a real scripted agent: the other folders reach an agent
 * that advertised `sessionCapabilities.additionalDirectories` as `session/new`'s `additionalDirectories` (the
 * SDK's request shape; sdk-conformance.ts checks the types), and never an agent that did not.
 */
import * as assert from 'node:assert/strict';
import { entriesOf } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';
import { HarnessSuite } from '../../support/harness-suite';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';

const PREFIX = 'additionalDirectories: ';

function reportedText(state: TranscriptState): string | undefined {
  for (const entry of entriesOf(state)) {
    if (entry.kind !== 'message' || entry.role !== 'agent') continue;
    const block = entry.content[0];
    if (block?.type === 'text' && block.text.startsWith(PREFIX)) return block.text.slice(PREFIX.length);
  }
  return undefined;
}

async function reported(harness: HostHarness): Promise<unknown> {
  const state = await harness.waitFor((s) => reportedText(s) !== undefined);
  return JSON.parse(reportedText(state) ?? '');
}

describe('additionalDirectories: the other folders of a multi-root workspace', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-dirs-');

  it('an agent that advertises it gets every folder but its cwd, in workspace order', async () => {
    const harness = suite.start({ otherRoots: ['/work/second', '/work/third'] });
    await harness.controller.start(scriptedAgent('echo', { ACP_ADDITIONAL_DIRECTORIES: '1' }));
    assert.deepEqual(await reported(harness), ['/work/second', '/work/third']);
  });

  it('a single-folder workspace sends none (the field is omitted, not empty)', async () => {
    const harness = suite.start();
    await harness.controller.start(scriptedAgent('echo', { ACP_ADDITIONAL_DIRECTORIES: '1' }));
    assert.equal(await reported(harness), null);
  });
});
