import * as assert from 'node:assert/strict';
import { installStatusText, showsInstall, type InstallProgress } from '../../../src/shared/install-status';
import type { AgentStatus } from '../../../src/shared/model';

const install: InstallProgress = { agentName: 'Fixture', version: '1.0.0', receivedBytes: 0 };
const MB = 1024 * 1024;

describe('where the chat shows a registry install', () => {
  it('an empty chat without a working agent shows the install (first run, or an agent that stopped or exited)', () => {
    const idle: AgentStatus[] = [
      { phase: 'none' },
      { phase: 'stopped', agentName: 'Old' },
      { phase: 'exited', agentName: 'Old', exitCode: 1 },
    ];
    for (const agent of idle) assert.equal(showsInstall(agent, install, true), true, agent.phase);
  });

  it('a chat whose own agent starts, runs or waits for a sign-in keeps saying so: the install never contradicts it', () => {
    const busy: AgentStatus[] = [
      { phase: 'starting', agentName: 'Other' },
      { phase: 'ready', agentName: 'Other' },
      { phase: 'needs_auth', agentName: 'Other', methods: [] },
    ];
    for (const agent of busy) assert.equal(showsInstall(agent, install, true), false, agent.phase);
  });

  it('a conversation with a transcript keeps its own header, and no install means nothing to show', () => {
    assert.equal(showsInstall({ phase: 'none' }, install, false), false);
    assert.equal(showsInstall({ phase: 'none' }, undefined, true), false);
  });
});

describe('the words of an install', () => {
  it('says Installing… before a byte arrives, then the bytes, then the bytes of the known size', () => {
    assert.equal(installStatusText(install), 'Installing…');
    assert.equal(installStatusText({ ...install, receivedBytes: 1.5 * MB }), 'Installing… 1.5 MB');
    assert.equal(installStatusText({ ...install, receivedBytes: 1.5 * MB, totalBytes: 4 * MB }), 'Installing… 1.5 MB of 4.0 MB');
  });
});
