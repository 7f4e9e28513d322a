/**
 * Secrets never reach the wire trace. A secret is masked where it stands as a whole JSON string (how a traced
 * message carries an env or header value), not wherever its characters occur: a short value such as "1" would
 * otherwise blank out half the log.
 */
export const MASK = '"***"';

export class TraceRedaction {
  private readonly literals = new Set<string>();

  /** Adds values to mask from now on. */
  add(secrets: readonly string[]): void {
    for (const secret of secrets) if (secret.length > 0) this.literals.add(JSON.stringify(secret));
  }

  redact(text: string): string {
    let redacted = text;
    for (const literal of this.literals) redacted = redacted.split(literal).join(MASK);
    return redacted;
  }
}
