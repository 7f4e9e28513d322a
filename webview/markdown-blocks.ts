/**
 * Splits markdown into top-level blocks so a streaming message re-renders only its last block: finished blocks
 * keep their rendered HTML. Pure and DOM-free. Joining the blocks gives back the text exactly.
 *
 * A block ends at a blank line outside a code fence when the next line starts a new top-level construct (it is
 * not indented, and it is not the next item of a list the block already is). Text with link reference
 * definitions is kept whole, since a definition may serve links in any block.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

export function splitMarkdownBlocks(text: string): string[] {
  if (REFERENCE_DEFINITION.test(text)) return text === '' ? [] : [text];
  const blocks: string[] = [];
  let blockStart = 0;
  let blockIsList = false;
  let blockHasContent = false;
  let fence: { char: string; length: number } | undefined;
  let blankSeen = false;
  let lineStart = 0;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (fence) {
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && BLANK.test(line.slice(close[0].length))) fence = undefined;
    } else if (BLANK.test(line)) {
      blankSeen = true;
    } else {
      if (blankSeen && blockHasContent && !/^[ \t]/.test(line) && !(blockIsList && LIST_ITEM.test(line))) {
        blocks.push(text.slice(blockStart, lineStart));
        blockStart = lineStart;
        blockHasContent = false;
      }
      if (!blockHasContent) blockIsList = LIST_ITEM.test(line);
      blockHasContent = true;
      blankSeen = false;
      const open = FENCE.exec(line);
      if (open) fence = { char: open[1]![0]!, length: open[1]!.length };
    }
    lineStart = newline === -1 ? text.length : newline + 1;
  }
  if (blockStart < text.length) blocks.push(text.slice(blockStart));
  return blocks;
}

/**
 * Remembers the last split so that when text only grows (streaming) just the last block is split again: a block
 * boundary depends only on the lines up to it, so earlier blocks cannot change.
 */
export class IncrementalBlockSplitter {
  private text = '';
  private blocks: string[] = [];

  split(text: string): readonly string[] {
    const last = this.blocks[this.blocks.length - 1];
    if (last !== undefined && text.startsWith(this.text) && !REFERENCE_DEFINITION.test(text.slice(this.text.length - last.length))) {
      const settled = this.blocks.slice(0, -1);
      const tail = splitMarkdownBlocks(text.slice(this.text.length - last.length));
      this.blocks = settled.concat(tail);
    } else {
      this.blocks = splitMarkdownBlocks(text);
    }
    this.text = text;
    return this.blocks;
  }
}
