/** What the VS Code permission dialog is given to show, through the real host path and a real agent process. */
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { scriptedAgent } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { entriesOf } from '../../../src/shared/selectors';

describe('permission dialog: the files a tool call names', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-perm-text-');

  it('gets the full path from the earlier tool_call even when the request itself names no location', async () => {
    mkdirSync(path.join(suite.root, 'src'));
    const file = path.join(suite.root, 'src', 'hello.ts');
    writeFileSync(file, 'export const saved = 1;\n');
    const harness = suite.start({ permissionAnswer: 'reject' });
    await harness.controller.start(scriptedAgent('tools'));
    await harness.controller.sendPrompt('edit it');
    await harness.waitFor((state) => state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end'));
    assert.deepEqual(
      harness.prompt.shown.map((shown) => ({ title: shown.toolTitle, paths: shown.paths })),
      [{ title: 'Edit hello.ts', paths: [file] }],
    );
  });
});
