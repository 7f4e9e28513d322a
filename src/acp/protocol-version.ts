/**
 * What differs on the wire between the versions we speak: which version the agent chose, where the prompt
 * capabilities are, how a config value is tagged. We send the version we offer; the agent answers the one it speaks.
 */
export type ProtocolVersion = 1 | 2;

/** The version the agent chose, or why we cannot talk to it. */
export function acceptedVersion(offered: ProtocolVersion, answered: number): ProtocolVersion | { readonly error: string } {
  if (answered === offered) return offered;
  if (answered === 1) return 1;
  return { error: `the agent answered ACP version ${answered}, which this client does not speak (offered ${offered})` };
}

/**
 * A config value as `session/set_config_option` carries it: booleans are tagged `type: "boolean"` in both
 * versions; a value id is untagged in v1 (the default) and must be tagged `type: "id"` in v2.
 */
export function configValuePayload(
  value: string | boolean,
  version: ProtocolVersion,
): { type?: 'boolean' | 'id'; value: string | boolean } {
  if (typeof value === 'boolean') return { type: 'boolean', value };
  return version === 2 ? { type: 'id', value } : { value };
}
