/**
 * Which version to offer, and what happens when the agent answers another. A v2 offer answered with 1 cannot simply
 * continue: a v1 agent that saw a v2 `initialize` has been told nothing about our fs/terminal capabilities
 * (PROTOCOL.md), so the agent is restarted and initialized with v1.
 */
import type { ProtocolVersion } from '../acp/protocol-version';
import type { ProtocolPreference } from '../agents/agent-config';

export function versionToOffer(preference: ProtocolPreference | undefined): ProtocolVersion {
  return preference === 2 || preference === 'auto' ? 2 : 1;
}

/** Thrown by a v2 start when the agent answers 1: the caller starts a fresh process on v1. */
export class NeedsV1Restart extends Error {
  constructor(agentName: string) {
    super(`${agentName} answered ACP v1 to a v2 offer`);
  }
}
