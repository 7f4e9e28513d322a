/** Which build a machine takes and how a download is unpacked, from the registry's names. */
import * as assert from 'node:assert/strict';
import { archiveKind } from '../../../../src/agents/registry/archive-kind';
import { confinedPath } from '../../../../src/agents/registry/confined-path';
import { currentPlatform } from '../../../../src/agents/registry/platform';

describe('registry platforms and archive kinds', () => {
  it('maps Node platforms to the registry keys, and none for machines without builds', () => {
    assert.equal(currentPlatform('linux', 'x64'), 'linux-x86_64');
    assert.equal(currentPlatform('linux', 'arm64'), 'linux-aarch64');
    assert.equal(currentPlatform('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(currentPlatform('darwin', 'x64'), 'darwin-x86_64');
    assert.equal(currentPlatform('win32', 'x64'), 'windows-x86_64');
    assert.equal(currentPlatform('win32', 'arm64'), 'windows-aarch64');
    assert.equal(currentPlatform('freebsd', 'x64'), undefined);
    assert.equal(currentPlatform('linux', 'ia32'), undefined);
  });

  it('unpacks by the file name in the URL, ignoring the query, and refuses installers', () => {
    assert.equal(archiveKind('https://h/a/agent-1.0-linux.tar.gz?token=x'), 'tar');
    assert.equal(archiveKind('https://h/agent.TGZ'), 'tar');
    assert.equal(archiveKind('https://h/agent.tar.bz2'), 'tar.bz2');
    assert.equal(archiveKind('https://h/agent.tbz2'), 'tar.bz2');
    assert.equal(archiveKind('https://h/agent.zip'), 'zip');
    assert.equal(archiveKind('https://h/releases/download/v1/agent-linux-x64'), 'raw');
    assert.throws(() => archiveKind('https://h/Agent.dmg'), /is an installer \(\.dmg\), which the ACP registry does not support/);
  });

  it('confines entry names to the install folder', () => {
    assert.equal(confinedPath('/store/a', 'bin/agent'), '/store/a/bin/agent');
    assert.equal(confinedPath('/store/a', './bin/./agent'), '/store/a/bin/agent');
    assert.equal(confinedPath('/store/a', 'bin/../agent'), undefined, 'no archive needs `..`: refused even when it stays inside');
    assert.equal(confinedPath('/store/a', '../b/agent'), undefined);
    assert.equal(confinedPath('/store/a', 'bin/../../agent'), undefined);
    assert.equal(confinedPath('/store/a', '..\\agent'), undefined);
    assert.equal(confinedPath('/store/a', '/etc/passwd'), undefined);
    assert.equal(confinedPath('/store/a', 'C:/Windows/x'), undefined);
    assert.equal(confinedPath('/store/a', '..foo/agent'), '/store/a/..foo/agent', 'a name starting with dots is not a parent');
  });
});
