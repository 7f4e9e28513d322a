/**
 * `@` file mentions in the composer: which word after `@` is being typed, and what accepting a file does to the
 * text. The file itself rides along as an attachment; the `@path` left in the text keeps the sentence readable
 * ("explain @src/parser.ts"). Pure, so it is tested without a DOM.
 */

export interface MentionQuery {
  /** Index of the `@`. */
  readonly start: number;
  /** What follows it up to the caret. */
  readonly query: string;
}

/** The `@word` ending at the caret, when the `@` starts the text or follows whitespace (so e-mail addresses don't trigger it). */
export function mentionQuery(text: string, caret: number): MentionQuery | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)@(\S*)$/.exec(before);
  if (!match) return undefined;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}

/** Replaces the `@word` at the caret with `@label` and one space; the caret lands after the space. */
export function acceptMention(text: string, mention: MentionQuery, label: string): { text: string; caret: number } {
  const afterWord = text.slice(mention.start + 1).search(/\s|$/) + mention.start + 1;
  const rest = text.slice(afterWord).replace(/^ /, '');
  const head = `${text.slice(0, mention.start)}@${label} `;
  return { text: head + rest, caret: head.length };
}
