/**
 * Which of the session lifecycle methods an agent serves, from its `initialize` answer. `session/load` has its
 * own flag (`agentCapabilities.loadSession`); the others are keys of `agentCapabilities.sessionCapabilities`
 * where an object (even `{}`) means supported and omitted or `null` means not. Each key is read on its own, so
 * one malformed entry costs that method only, never the others.
 */
import { z } from 'zod';

export interface SessionSupport {
  readonly load: boolean;
  readonly list: boolean;
  readonly resume: boolean;
  readonly fork: boolean;
  readonly close: boolean;
  readonly delete: boolean;
  /** The wire key is `title`; the method `session/set_title`. */
  readonly setTitle: boolean;
  /** `additionalDirectories` on session/new, load and resume: the other folders of a multi-root workspace. */
  readonly additionalDirectories: boolean;
}

export const NO_SESSION_SUPPORT: SessionSupport = {
  load: false,
  list: false,
  resume: false,
  fork: false,
  close: false,
  delete: false,
  setTitle: false,
  additionalDirectories: false,
};

// `true` is not what the schema says, but it can only mean "supported": reading it so costs nothing.
const advertised = z.union([z.object({}).loose(), z.literal(true)]);

const capabilities = z
  .object({
    loadSession: z.boolean().nullish().catch(undefined),
    sessionCapabilities: z.record(z.string(), z.unknown()).nullish().catch(undefined),
  })
  .loose();

export function sessionSupportOf(agentCapabilities: unknown): SessionSupport {
  const parsed = capabilities.safeParse(agentCapabilities);
  if (!parsed.success) return NO_SESSION_SUPPORT;
  const entries = parsed.data.sessionCapabilities ?? {};
  const has = (key: string): boolean => advertised.safeParse(entries[key]).success;
  return {
    load: parsed.data.loadSession === true,
    list: has('list'),
    resume: has('resume'),
    fork: has('fork'),
    close: has('close'),
    delete: has('delete'),
    setTitle: has('title'),
    additionalDirectories: has('additionalDirectories'),
  };
}
