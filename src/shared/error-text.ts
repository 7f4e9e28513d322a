/**
 * What a caught value says: a thrown `Error`'s message, anything else (a string, a rejected non-error) as text.
 * Every `catch` that reports to the user or the log goes through these, so a non-Error throw never shows as
 * "[object Object]" in one place and as its message in another.
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The caught value as an `Error` (a rejection or a `destroy` needs one), its text kept. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** For the log, where where it was thrown matters: the stack when there is one. */
export function errorWithStack(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
