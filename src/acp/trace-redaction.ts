/**
 * Secrets never reach the wire trace. A secret is masked where it stands as a whole JSON string (how a traced
 * message carries an env or header value); one long enough not to occur by chance is also masked inside other
 * text (an agent quoting it back). A short value such as "1" is not: it would blank out half the log.
 */
export const MASK = '***';

/** Shorter secrets are masked only as whole JSON strings. */
export const MIN_MASKED_ANYWHERE = 8;

export class TraceRedaction {
  /** Longest first, so a value holding another secret is masked whole. */
  private patterns: { readonly find: string; readonly mask: string }[] = [];

  /** Adds values to mask from now on. */
  add(secrets: readonly string[]): void {
    const patterns = new Map(this.patterns.map((pattern) => [pattern.find, pattern]));
    for (const secret of secrets) {
      if (secret.length === 0) continue;
      // As the value appears inside a JSON string: escaped the way the trace escapes it.
      const escaped = JSON.stringify(secret).slice(1, -1);
      const pattern = secret.length >= MIN_MASKED_ANYWHERE ? { find: escaped, mask: MASK } : { find: `"${escaped}"`, mask: `"${MASK}"` };
      patterns.set(pattern.find, pattern);
    }
    this.patterns = [...patterns.values()].sort((a, b) => b.find.length - a.find.length);
  }

  redact(text: string): string {
    let redacted = text;
    for (const { find, mask } of this.patterns) redacted = redacted.split(find).join(mask);
    return redacted;
  }
}
