/**
 * Heights (px) assumed for entries that have not been measured yet, so the scrollbar is roughly right for a
 * long transcript without laying it all out. Measured heights replace these. Pure and DOM-free.
 */
import type { Entry } from '../../src/shared/model';

const LINE = 20;
const CHARS_PER_LINE = 60;

function textLength(entry: Extract<Entry, { kind: 'message' }>): number {
  let length = 0;
  for (const block of entry.content) if (block.type === 'text') length += block.text.length;
  return length;
}

export function estimateHeight(entry: Entry): number {
  switch (entry.kind) {
    case 'message': {
      if (entry.role === 'thought') return 32;
      const lines = Math.max(1, Math.ceil(textLength(entry) / CHARS_PER_LINE));
      return Math.min(lines, 400) * LINE + (entry.role === 'user' ? 32 : 16);
    }
    case 'tool_call':
      return 44 + (entry.permission ? 44 : 0) + (entry.content.length > 0 ? 60 : 0) + (entry.elicitation ? 160 : 0);
    case 'plan':
      return 40 + (entry.body.type === 'items' ? entry.body.items.length * 22 : 60);
    case 'turn_end':
      return entry.outcome.type === 'stopped' && entry.outcome.stopReason === 'end_turn' ? 0 : 28;
    case 'notice':
      return 56;
    case 'compaction':
      return 36 + (entry.summary.length > 0 ? 80 : 0);
    case 'changes':
      return 36 + entry.files.length * 24;
    case 'elicitation':
      return entry.elicitation.request.mode === 'form' && entry.elicitation.outcome === undefined ? 200 : 60;
  }
}
