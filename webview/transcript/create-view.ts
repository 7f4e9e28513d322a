/** The renderer for an entry, by kind (and role, for messages). */
import type { Entry } from '../../src/shared/model';
import type { EntryView } from './entry-view';
import { MessageView } from './message-view';
import { CompactionView, NoticeView, PlanView, TurnEndView } from './simple-views';
import { ToolCallView } from './tool-call-view';
import { ElicitationEntryView } from './elicitation-view';
import { ChangeSetView } from '../review/change-set-view';

/** Views are reused only for entries of the same shape, which this names. */
export function viewShape(entry: Entry): string {
  return entry.kind === 'message' ? `message:${entry.role}` : entry.kind;
}

export function createEntryView(entry: Entry): EntryView {
  switch (entry.kind) {
    case 'message':
      return new MessageView(entry.role);
    case 'tool_call':
      return new ToolCallView();
    case 'plan':
      return new PlanView();
    case 'turn_end':
      return new TurnEndView();
    case 'notice':
      return new NoticeView();
    case 'compaction':
      return new CompactionView();
    case 'elicitation':
      return new ElicitationEntryView();
    case 'changes':
      return new ChangeSetView();
  }
}
