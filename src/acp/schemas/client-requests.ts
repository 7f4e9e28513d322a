/**
 * Params of what an agent asks of the client. Lenient like the reference implementations: unknown fields pass
 * (`.loose()`), `_meta` is never a problem, optional fields accept null. Checked against the SDK's types in
 * sdk-conformance.ts so drift fails the build.
 */
import { z } from 'zod';

const optionalNumber = z.number().int().min(0).nullish();

export const readTextFileParams = z
  .object({ sessionId: z.string(), path: z.string(), line: z.number().int().min(1).nullish(), limit: optionalNumber })
  .loose();

export const writeTextFileParams = z.object({ sessionId: z.string(), path: z.string(), content: z.string() }).loose();

const permissionOptionSchema = z
  .object({
    optionId: z.string(),
    name: z.string(),
    kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
  })
  .loose();

export const requestPermissionParams = z
  .object({
    sessionId: z.string(),
    // The tool call's fields are parsed by the session-update parser, like a tool_call_update. Required by the
    // schema, yet some agents leave it out: such a request still gets its card (connection.ts).
    toolCall: z.object({ toolCallId: z.string() }).loose().optional(),
    options: z.array(permissionOptionSchema).min(1, 'at least one option is required'),
  })
  .loose();

export const createTerminalParams = z
  .object({
    sessionId: z.string(),
    command: z.string().min(1),
    args: z.array(z.string()).nullish(),
    env: z.array(z.object({ name: z.string(), value: z.string() }).loose()).nullish(),
    cwd: z.string().nullish(),
    outputByteLimit: optionalNumber,
  })
  .loose();

export const terminalRefParams = z.object({ sessionId: z.string(), terminalId: z.string() }).loose();

export const sessionUpdateEnvelope = z.object({ sessionId: z.string(), update: z.unknown() }).loose();

export type ReadTextFileParams = z.infer<typeof readTextFileParams>;
export type WriteTextFileParams = z.infer<typeof writeTextFileParams>;
export type CreateTerminalParams = z.infer<typeof createTerminalParams>;
export type TerminalRefParams = z.infer<typeof terminalRefParams>;
