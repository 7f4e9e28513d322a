/**
 * Text shown as it is (not as markdown), the way the transcript shows it. DOM-free, so the unit tests (plain Node,
 * no DOM) check what the views put in the page.
 */
import { visibleText } from '../../src/shared/visible-text';

/** Long texts are cut for display: the transcript must stay responsive whatever an agent sends. */
export const DISPLAY_TEXT_LIMIT = 20_000;

export function truncateForDisplay(text: string, limit = DISPLAY_TEXT_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}\n… (${text.length - limit} more characters)`;
}

/**
 * A user message's text as its bubble shows it: cut, with bidi and invisible characters as `<U+XXXX>`. The bubble
 * is drawn by its first chunk and redrawn by every later one (a session/load replay streams a user message as the
 * agent chooses to cut it), and both must show the same, so both go through here.
 */
export function plainMessageText(text: string): string {
  return visibleText(truncateForDisplay(text), 'multiline');
}
