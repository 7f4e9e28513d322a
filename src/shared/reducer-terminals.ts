/**
 * Terminals the agent runs: their output (a display-sized tail), exit and release, and which tool calls show
 * them. Output arrives as separate actions from the tool calls that embed a terminal, so each record lists its
 * tool calls and a view can redraw exactly those cards.
 */
import type { TranscriptAction } from './actions';
import { TERMINAL_DISPLAY_CHARS, type TerminalRecord, type TranscriptState } from './model';
import { entryAtPosition, positionOf } from './pages';
import { patched } from './patch';
import { toolKey } from './selectors';

type TerminalAction = Extract<
  TranscriptAction,
  { type: 'terminal_started' | 'terminal_output' | 'terminal_exited' | 'terminal_released' | 'terminal_patched' }
>;

function blank(terminalId: string): TerminalRecord {
  return { terminalId, commandLine: '', output: '', trimmed: false, released: false, toolCallIds: [] };
}

function withTerminal(state: TranscriptState, terminalId: string, change: (record: TerminalRecord) => TerminalRecord): TranscriptState {
  const record = change(state.terminals[terminalId] ?? blank(terminalId));
  return { ...state, terminals: { ...state.terminals, [terminalId]: record } };
}

/** Keeps the newest `limit` characters, never starting inside a surrogate pair. */
function tail(text: string, limit: number): string {
  let start = text.length - limit;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return text.slice(start);
}

/** Output kept for display: the newest `keep` characters, marked trimmed when earlier output was dropped. */
function withOutput(record: TerminalRecord, output: string, trimmed: boolean, keep = TERMINAL_DISPLAY_CHARS): TerminalRecord {
  return output.length <= keep ? { ...record, output, trimmed } : { ...record, output: tail(output, keep), trimmed: true };
}

export function applyTerminalAction(state: TranscriptState, action: TerminalAction): TranscriptState {
  switch (action.type) {
    case 'terminal_started':
      return withTerminal(state, action.terminalId, (record) => ({ ...record, commandLine: action.commandLine }));
    case 'terminal_output': {
      if (action.text === '') return state;
      const keep = action.keep ?? TERMINAL_DISPLAY_CHARS;
      // A chunk that alone fills the display replaces it: no copy of the old output, work bounded by the chunk.
      if (action.text.length >= keep)
        return withTerminal(state, action.terminalId, (record) => withOutput(record, action.text, true, keep));
      return withTerminal(state, action.terminalId, (record) => withOutput(record, record.output + action.text, record.trimmed, keep));
    }
    case 'terminal_patched':
      return withTerminal(state, action.terminalId, (record) => {
        const { exit: _previousExit, cancellable: _previousCancellable, ...rest } = record;
        const exit = patched(record.exit, action.exit);
        const cancellable = action.cancellable ?? record.cancellable;
        const next: TerminalRecord = {
          ...rest,
          ...(action.commandLine !== undefined ? { commandLine: action.commandLine } : {}),
          ...(exit ? { exit } : {}),
          ...(cancellable ? { cancellable } : {}),
        };
        return action.output === undefined ? next : withOutput(next, action.output, false);
      });
    case 'terminal_exited':
      return withTerminal(state, action.terminalId, (record) => ({
        ...record,
        exit: { exitCode: action.exitCode, signal: action.signal },
      }));
    case 'terminal_released':
      if (!state.terminals[action.terminalId]) return state;
      return withTerminal(state, action.terminalId, (record) => ({ ...record, released: true }));
  }
}

/** After a tool call's content changed: records that the call shows the terminals its content names. */
export function linkTerminals(state: TranscriptState, toolCallId: string): TranscriptState {
  const position = positionOf(state, toolKey(toolCallId));
  const entry = position === undefined ? undefined : entryAtPosition(state, position);
  if (entry?.kind !== 'tool_call') return state;
  let next = state;
  for (const content of entry.content) {
    if (content.type !== 'terminal' || next.terminals[content.terminalId]?.toolCallIds.includes(toolCallId)) continue;
    next = withTerminal(next, content.terminalId, (record) => ({ ...record, toolCallIds: [...record.toolCallIds, toolCallId] }));
  }
  return next;
}
