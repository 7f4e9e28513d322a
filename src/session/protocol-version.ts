/**
 * Version negotiation. We send the version we offer; the agent answers the one it will speak. A v2 offer
 * answered with 1 cannot simply continue: a v1 agent that saw a v2 `initialize` has been told nothing about our
 * fs/terminal capabilities (PROTOCOL.md), so the agent is restarted and initialized with v1.
 */
import type { InitializeResult } from '../acp/schemas/agent-results';
import type { ProtocolPreference } from '../agents/agent-config';

export type ProtocolVersion = 1 | 2;

export function versionToOffer(preference: ProtocolPreference | undefined): ProtocolVersion {
  return preference === 2 || preference === 'auto' ? 2 : 1;
}

/** Thrown by a v2 start when the agent answers 1: the caller starts a fresh process on v1. */
export class NeedsV1Restart extends Error {
  constructor(agentName: string) {
    super(`${agentName} answered ACP v1 to a v2 offer`);
  }
}

/** The version the agent chose, or why we cannot talk to it. */
export function acceptedVersion(offered: ProtocolVersion, answered: number): ProtocolVersion | { readonly error: string } {
  if (answered === offered) return offered;
  if (answered === 1) return 1;
  return { error: `the agent answered ACP version ${answered}, which this client does not speak (offered ${offered})` };
}

/** What the prompt may carry: v1 booleans, or v2's presence-based objects. */
export function promptCapabilitiesOf(init: InitializeResult, version: ProtocolVersion): { image: boolean; audio: boolean; embeddedContext: boolean } {
  if (version === 2) {
    const prompt = init.capabilities?.session?.prompt;
    const has = (name: string): boolean => prompt?.[name] !== undefined && prompt[name] !== null && prompt[name] !== false;
    return { image: has('image'), audio: has('audio'), embeddedContext: has('embeddedContext') };
  }
  const prompt = init.agentCapabilities?.promptCapabilities;
  return { image: prompt?.image === true, audio: prompt?.audio === true, embeddedContext: prompt?.embeddedContext === true };
}

/**
 * A config value as `session/set_config_option` carries it: booleans are tagged `type: "boolean"` in both
 * versions; a value id is untagged in v1 (the default) and must be tagged `type: "id"` in v2.
 */
export function configValuePayload(value: string | boolean, version: ProtocolVersion): { type?: 'boolean' | 'id'; value: string | boolean } {
  if (typeof value === 'boolean') return { type: 'boolean', value };
  return version === 2 ? { type: 'id', value } : { value };
}
