/**
 * Registry text (names, descriptions, licenses) comes from third parties and is shown in VS Code's UI. Line breaks
 * and runs of white space fold to one space (a picker row is one line); bidi controls and invisible characters are
 * shown as `<U+XXXX>`, as everywhere an agent names something, so what the user reads is what is there; the length
 * is capped so one entry cannot flood a picker.
 */
import { visibleText } from '../../shared/visible-text';

export function displayText(text: string, maxLength = 300): string {
  const visible = visibleText(text.replace(/[\t\n\r]+/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return visible.length > maxLength ? `${visible.slice(0, maxLength - 1)}…` : visible;
}
