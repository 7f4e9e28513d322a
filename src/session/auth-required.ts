/** JSON-RPC -32000 (auth_required): the agent wants the user signed in before it does what was asked. */
export const AUTH_REQUIRED = -32000;

/** Thrown by AgentSession.start when `session/new` answered auth_required; the message is the agent's own. */
export class AuthRequired extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'AuthRequired';
  }
}

export function isAuthRequired(error: unknown): error is Error & { code: number } {
  return error instanceof Error && 'code' in error && error.code === AUTH_REQUIRED;
}
