/**
 * Text an agent names (titles, paths, commands, option names) is shown with every character that could hide or
 * reorder what the user reads made visible as `<U+XXXX>`, the way VS Code flags such characters in editors. A
 * right-to-left override turns `invoice\u202Egpj.exe` into what reads as `invoiceexe.jpg`; zero-width and control
 * characters make two different names look alike. Pure: the webview and the host's dialogs share it.
 */

/** Explicit bidi formatting: embeddings and overrides (U+202A-202E), isolates (U+2066-2069), marks. */
const BIDI_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069\\u200E\\u200F\\u061C';

/**
 * Invisible or control characters: C0 (tab, newline and carriage return are handled per mode), DEL and C1; soft hyphen; combining
 * grapheme joiner; Hangul and Mongolian fillers that render as nothing; zero-width space and non-joiner; word
 * joiner and invisible operators; line/paragraph separators; BOM; interlinear annotation; and the tag characters
 * (U+E0000-E007F) that can smuggle ASCII text unseen.
 */
const INVISIBLES =
  '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u115F\\u1160\\u180E\\u200B\\u200C\\u2028\\u2029\\u2060-\\u2064\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB\\u{E0000}-\\u{E007F}';

/** Invisible combining marks (grapheme joiner, Khmer inherent vowels): alternatives, since a character class
 * would let them combine with the class's previous member. */
const COMBINING_INVISIBLES = '\\u034F|\\u17B4|\\u17B5';

/**
 * The zero-width joiner glues emoji into one (👨‍👩‍👧): between two pictographs it is what the author meant and shows
 * nothing hidden; anywhere else it is flagged.
 */
const LONE_ZWJ = '(?<!\\p{Extended_Pictographic}\\uFE0F?)\\u200D|\\u200D(?!\\p{Extended_Pictographic})';

const SINGLE_LINE = new RegExp(`[${BIDI_CONTROLS}${INVISIBLES}\\t\\n\\r]|${COMBINING_INVISIBLES}|${LONE_ZWJ}`, 'gu');
/** A carriage return ending a line (CRLF) is a line break, not a hidden character. */
const MULTI_LINE = new RegExp(`[${BIDI_CONTROLS}${INVISIBLES}]|\\r(?!\\n)|${COMBINING_INVISIBLES}|${LONE_ZWJ}`, 'gu');

/**
 * Only the controls that can reorder text outside their own run: embeddings and overrides. Isolates and marks
 * stay, since mixed right-to-left and left-to-right prose needs them and they cannot reverse a run of letters.
 */
const REORDERING = /[\u202A-\u202E]/gu;

function codePointLabel(character: string): string {
  return `<U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * `text` with bidi controls and invisible characters shown as `<U+XXXX>`. `multiline` keeps tab, newline and CRLF (a
 * command, terminal output, a diff line); otherwise they are flagged too, since a label is one line.
 */
export function visibleText(text: string, mode: 'single-line' | 'multiline' = 'single-line'): string {
  const pattern = mode === 'multiline' ? MULTI_LINE : SINGLE_LINE;
  // Almost every label is clean: test first so the common case allocates nothing.
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, codePointLabel);
}

/**
 * Prose (markdown message bodies): right-to-left languages render as written, isolates and marks included; only
 * embeddings and overrides are shown as `<U+XXXX>`, since those are what let text masquerade as other text.
 */
export function visibleProse(text: string): string {
  REORDERING.lastIndex = 0;
  if (!REORDERING.test(text)) return text;
  REORDERING.lastIndex = 0;
  return text.replace(REORDERING, codePointLabel);
}
