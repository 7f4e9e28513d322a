/**
 * The small first bundle's pure parts (src/boot): which commands it stands in for, and the exports that load the
 * rest of the extension on first use, but not when VS Code or an `await` asks whether they are a promise.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AcpClientApi } from '../../../src/api';
import { contributedCommandIds } from '../../../src/boot/contributed-commands';
import { lazyApi } from '../../../src/boot/lazy-api';
import { repoRoot } from '../../support/repo-root';

describe('the first bundle: commands it stands in for', () => {
  it("are every command of the extension's own package.json", () => {
    const manifest: unknown = JSON.parse(readFileSync(path.join(repoRoot(), 'package.json'), 'utf8'));
    const ids = contributedCommandIds(manifest);
    assert.ok(ids.length > 30, `${ids.length} commands`);
    assert.ok(ids.includes('acpClient.newSession'));
    assert.ok(ids.includes('acpClient.selectAgent'));
  });

  it('are none for a manifest without commands, and skip entries without an id', () => {
    assert.deepEqual(contributedCommandIds(undefined), []);
    assert.deepEqual(contributedCommandIds({ contributes: {} }), []);
    assert.deepEqual(contributedCommandIds({ contributes: { commands: [{ command: 'a' }, { title: 'no id' }, 7] } }), ['a']);
  });
});

describe('the first bundle: the exports before the rest has loaded', () => {
  const api = (): { loads: () => number; exports: AcpClientApi } => {
    let loads = 0;
    const real = { shownConversation: () => 'shown', draftOf: (id: string) => `draft of ${id}` } as Partial<AcpClientApi>;
    return {
      loads: () => loads,
      exports: lazyApi(() => {
        loads++;
        return real as AcpClientApi;
      }),
    };
  };

  it('load nothing when awaited (a promise is asked for `then`)', async () => {
    const { loads, exports } = api();
    const awaited = await Promise.resolve(exports);
    assert.equal(awaited, exports);
    assert.equal(loads(), 0);
  });

  it('load the rest on first use and answer as it does', () => {
    const { loads, exports } = api();
    assert.equal(exports.shownConversation(), 'shown');
    assert.equal(exports.draftOf('c1'), 'draft of c1');
    assert.ok(loads() >= 1);
    assert.equal('draftOf' in exports, true);
    assert.equal('answerApprovalsForTests' in exports, false);
  });
});
