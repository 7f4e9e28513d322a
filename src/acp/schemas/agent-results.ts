/** Results of what we ask of the agent, validated leniently: unknown fields pass, malformed extras are dropped. */
import { z } from 'zod';

const promptCapabilities = z
  .object({ image: z.boolean().nullish(), audio: z.boolean().nullish(), embeddedContext: z.boolean().nullish() })
  .loose();

export const initializeResult = z
  .object({
    protocolVersion: z.number().int(),
    agentCapabilities: z
      .object({ loadSession: z.boolean().nullish().catch(undefined), promptCapabilities: promptCapabilities.nullish().catch(undefined) })
      .loose()
      .nullish()
      .catch(undefined),
    // Item by item in auth-methods.ts: one method we cannot use must not hide the others.
    authMethods: z.array(z.unknown()).nullish().catch(undefined),
    agentInfo: z
      .object({ name: z.string(), title: z.string().nullish(), version: z.string().nullish() })
      .loose()
      .nullish()
      .catch(undefined),
    // The v2 draft's names: capabilities.session.prompt.{image,audio,embeddedContext} are objects, present = supported.
    capabilities: z
      .object({
        session: z
          .object({ prompt: z.record(z.string(), z.unknown()).nullish().catch(undefined) })
          .loose()
          .nullish()
          .catch(undefined),
      })
      .loose()
      .nullish()
      .catch(undefined),
    info: z.object({ name: z.string(), title: z.string().nullish(), version: z.string().nullish() }).loose().nullish().catch(undefined),
  })
  .loose();

/**
 * claude-agent-acp's `_session/steering` answer: `injected` into the running turn, or `promptRequired` when no turn
 * ran any more (the client asked for that answer, and sends the message as a prompt itself).
 */
export const steeringResult = z.object({ outcome: z.string() }).loose();

/** Whether `initialize`'s `_meta` advertises the `_session/steering` extension (`steering.supported`). */
export const steeringAdvertised = z.object({ steering: z.object({ supported: z.literal(true) }).loose() }).loose();

const sessionModeSchema = z.object({ id: z.string(), name: z.string(), description: z.string().nullish() }).loose();

export const sessionModeState = z.object({ currentModeId: z.string(), availableModes: z.array(sessionModeSchema) }).loose();

export const newSessionResult = z
  .object({
    sessionId: z.string(),
    modes: sessionModeState.nullish().catch(undefined),
    // Parsed by the session-update parser's config option rules.
    configOptions: z.array(z.unknown()).nullish().catch(undefined),
  })
  .loose();

/**
 * `session/load` and `session/resume` answer what `session/new` does, less the id the client already knows; the
 * SDK lets a load answer nothing at all (`null`).
 */
export const sessionSetupResult = z
  .object({
    modes: sessionModeState.nullish().catch(undefined),
    configOptions: z.array(z.unknown()).nullish().catch(undefined),
  })
  .loose()
  .nullish();

/**
 * `session/fork` (unstable) answers like `session/new`: a new session id, with its modes and options.
 * @alias of newSessionResult, under the method's own name.
 */
export const forkSessionResult = newSessionResult;

/** Entries are parsed one by one in listed-sessions.ts: one malformed entry must not hide the page. */
export const listSessionsResult = z
  .object({ sessions: z.array(z.unknown()).catch([]), nextCursor: z.string().nullish().catch(undefined) })
  .loose();

/** `session/set_title` (unstable) answers the title as the agent stored it (it may trim or shorten it). */
export const setSessionTitleResult = z
  .object({ title: z.string().nullish().catch(undefined) })
  .loose()
  .nullish();

/** v1 answers `{stopReason}` when the turn ends; the v2 draft may answer `{messageId}` at once instead. */
export const promptResult = z.object({ stopReason: z.string().optional(), messageId: z.string().nullish() }).loose();

export const setConfigOptionResult = z
  .object({ configOptions: z.array(z.unknown()).nullish() })
  .loose()
  .nullish();

/** `authenticate` and `logout` answer `{}` (or, from some agents, `null`): nothing in it is read. */
export const emptyResult = z.unknown();

/**
 * The `models` field of a session setup answer, from ACP's unstable model selection (`session/set_model`), which
 * config options with `category: "model"` replaced. Gemini CLI still offers its models only this way.
 */
export const legacyModels = z
  .object({
    availableModels: z.array(z.object({ modelId: z.string(), name: z.string(), description: z.string().nullish() }).loose()),
    currentModelId: z.string(),
  })
  .loose();

export type InitializeResult = z.infer<typeof initializeResult>;
export type SessionSetupResult = z.infer<typeof sessionSetupResult>;
export type PromptResult = z.infer<typeof promptResult>;
