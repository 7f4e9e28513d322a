/** Conversations whose controllers are host harnesses over `root` (real agent processes), kept in `harnesses` to stop. */
import type { LogSink } from '../../src/acp/log-sink';
import { Conversations } from '../../src/conversations/conversations';
import { createHostHarness, type HostHarness } from './host-harness';

export function harnessedConversations(root: string, harnesses: HostHarness[], log: LogSink): Conversations {
  return new Conversations({
    factory: {
      controller: (store) => {
        const harness = createHostHarness(root, { store });
        harnesses.push(harness);
        return harness.controller;
      },
    },
    log,
  });
}
