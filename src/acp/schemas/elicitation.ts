/**
 * `elicitation/create` and `elicitation/complete` params. The form's `requestedSchema` is kept as loose JSON
 * here and turned into a form model in src/shared/elicitation-form.ts, which decides field by field what it can
 * draw: one odd property should not refuse the whole request.
 */
import { z } from 'zod';

const sessionScope = {
  sessionId: z.string(),
  // Omitted and null are equivalent: scoped to the session without a tool call.
  toolCallId: z.string().nullish(),
};

export const requestedSchema = z
  .object({
    type: z.literal('object').optional(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    properties: z.record(z.string(), z.unknown()).default({}),
    required: z.array(z.string()).nullish(),
  })
  .loose();

const formMode = z.object({ mode: z.literal('form'), message: z.string(), ...sessionScope, requestedSchema }).loose();

const urlMode = z
  .object({ mode: z.literal('url'), message: z.string(), ...sessionScope, elicitationId: z.string(), url: z.string() })
  .loose();

/** Only session-scoped requests: a request-scoped one (`requestId`, no session) names no session this client opened. */
export const createElicitationParams = z.discriminatedUnion('mode', [formMode, urlMode]);

export const completeElicitationParams = z.object({ elicitationId: z.string() }).loose();

export type CreateElicitationParams = z.infer<typeof createElicitationParams>;
