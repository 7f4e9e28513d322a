/**
 * Registry text (names, descriptions, licenses) comes from third parties and is shown in VS Code's UI: bidi
 * overrides and invisible characters are removed so that what the user reads is what is there, and the length is
 * capped so one entry cannot flood a picker.
 */
// C0/C1 controls, zero-width and bidi embedding/override/isolate marks, the BOM. Matching controls is the point:
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

export function displayText(text: string, maxLength = 300): string {
  const visible = text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
  return visible.length > maxLength ? `${visible.slice(0, maxLength - 1)}…` : visible;
}
