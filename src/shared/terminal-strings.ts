/**
 * A command's output may carry terminal control strings (OSC, DCS, APC, PM, SOS: `ESC ]`, `ESC P`, `ESC _`, `ESC ^`,
 * `ESC X` or their one-character C1 forms, up to BEL or ST). In a VS Code terminal they do more than draw: OSC 52
 * writes the clipboard (desktop VS Code writes the system clipboard; the user pastes an attacker's command into a
 * shell), OSC 8 makes words a link to a target they do not show, OSC 633 marks a command line and a folder for VS
 * Code's shell integration (the terminal's tab then names that folder), OSC 0 sets a title, DCS draws images. A
 * command the agent runs is often a stranger's script, so its output keeps its text, colours and cursor movement
 * (CSI sequences) and loses every control string, whole, even when a chunk ends inside one.
 */

/** Where a control string starts: ESC with ] P _ ^ X, or the C1 characters for DCS, SOS, OSC, PM and APC. */
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const STRING_START = /\x1b[\]P_^X]|[\x90\x98\x9d\x9e\x9f]/g;
/** What ends one: BEL, ST (ESC \ or its C1 form), or any other ESC (which a terminal takes as the end too). */
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const STRING_END = /[\x07\x1b\x9c]/g;
/**
 * A string never ended is dropped up to this many characters, then the output shows again: a stray `ESC ]` in a
 * binary dump must not hide everything after it (what follows is text; only a string's start makes it act).
 */
export const MAX_CONTROL_STRING_CHARS = 65_536;

/** The index of the next match of a global pattern at or after `from`, or -1. */
function nextMatch(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

export class ControlStringFilter {
  /** Inside a control string: the characters of it dropped so far; undefined outside one. */
  private dropped: number | undefined;
  /** The last chunk ended on an ESC whose meaning the next chunk decides (held back, not dropped). */
  private heldEscape = false;

  /** The chunk without its control strings (or their parts), given the chunks before it. */
  pass(chunk: string): string {
    const text = this.heldEscape ? `\x1b${chunk}` : chunk;
    this.heldEscape = false;
    if (this.dropped === undefined && nextMatch(STRING_START, text, 0) === -1 && !text.endsWith('\x1b')) return text;
    let kept = '';
    let at = 0;
    while (at < text.length) {
      if (this.dropped === undefined) {
        const start = nextMatch(STRING_START, text, at);
        if (start === -1) {
          kept += text.slice(at);
          break;
        }
        kept += text.slice(at, start);
        this.dropped = 0;
        at = start + (text[start] === '\x1b' ? 2 : 1);
        continue;
      }
      const found = nextMatch(STRING_END, text, at);
      const stop = found === -1 ? text.length : found;
      if (this.dropped + (stop - at) > MAX_CONTROL_STRING_CHARS) {
        // Too long for a control string: what comes after its first MAX characters is output again.
        at += MAX_CONTROL_STRING_CHARS - this.dropped;
        this.dropped = undefined;
        continue;
      }
      this.dropped += stop - at;
      if (found === -1) break;
      if (text[stop] !== '\x1b') {
        this.dropped = undefined;
        at = stop + 1;
      } else if (stop + 1 === text.length) {
        this.heldEscape = true;
        break;
      } else {
        this.dropped = undefined;
        at = text[stop + 1] === '\\' ? stop + 2 : stop;
      }
    }
    // An ESC ending the chunk outside a string may start one: held until the next chunk says.
    if (this.dropped === undefined && kept.endsWith('\x1b')) {
      this.heldEscape = true;
      kept = kept.slice(0, -1);
    }
    return kept;
  }

  /** Forgets what earlier chunks left open (the output is drawn afresh). */
  reset(): void {
    this.dropped = undefined;
    this.heldEscape = false;
  }
}

/** Whole text without its control strings (one the text's end leaves open is dropped to there). */
export function withoutControlStrings(text: string): string {
  return new ControlStringFilter().pass(text);
}
