/**
 * Fenced code block lines, recognised exactly as markdown-it recognises them (so a split or a streamed code
 * block never disagrees with a full render). Pure and DOM-free.
 */

export interface Fence {
  readonly char: string;
  readonly length: number;
}

const OPENING = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const CLOSING = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** The fence a line opens, if it opens one. markdown-it: a backtick fence's info string has no backtick. */
export function fenceOpening(line: string): Fence | undefined {
  const match = OPENING.exec(line);
  if (!match) return undefined;
  const marker = match[1]!;
  if (marker[0] === '`' && match[2]!.includes('`')) return undefined;
  return { char: marker[0]!, length: marker.length };
}

/** Whether a line closes `fence`: the same character, at least as many, nothing but spaces after. */
export function closesFence(line: string, fence: Fence): boolean {
  const match = CLOSING.exec(line);
  return match !== null && match[1]![0] === fence.char && match[1]!.length >= fence.length;
}

/**
 * A fence that starts at column 0 is a block of its own whatever came before (it interrupts a paragraph, and a
 * list or quote cannot take it as a lazy line), and whatever follows its closing line starts a new block.
 */
export function opensTopLevelFence(line: string): boolean {
  return (line.startsWith('```') || line.startsWith('~~~')) && fenceOpening(line) !== undefined;
}
