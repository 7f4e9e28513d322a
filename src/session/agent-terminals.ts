/**
 * v2 agent-owned terminals into terminal actions. Output arrives as base64 bytes in order; a character can be
 * split across chunks, so each terminal keeps a streaming UTF-8 decoder, restarted when a `terminal_update`
 * replaces the output wholesale.
 */
import { TextDecoder } from 'node:util';
import type { TranscriptAction } from '../shared/actions';
import type { AgentTerminalUpdate } from '../shared/updates';

/** What the chat is told about a terminal, the agent's own or one we run for it. */
export type TerminalAction = Extract<
  TranscriptAction,
  { type: 'terminal_started' | 'terminal_output' | 'terminal_exited' | 'terminal_released' | 'terminal_patched' }
>;

export class AgentTerminalDecoder {
  private readonly streams = new Map<string, TextDecoder>();

  translate(update: AgentTerminalUpdate): TerminalAction {
    if (update.kind === 'terminal_output_chunk') {
      return {
        type: 'terminal_output',
        terminalId: update.terminalId,
        text: this.stream(update.terminalId).decode(bytes(update.data), { stream: true }),
      };
    }
    let output: string | undefined;
    if (update.output !== undefined) {
      // A replacement snapshot: what was pending from earlier chunks is superseded.
      this.streams.delete(update.terminalId);
      output = update.output === null ? '' : this.stream(update.terminalId).decode(bytes(update.output), { stream: true });
    }
    return {
      type: 'terminal_patched',
      terminalId: update.terminalId,
      ...(update.command !== undefined ? { commandLine: update.command ?? '' } : {}),
      ...(output !== undefined ? { output } : {}),
      ...(update.exitStatus !== undefined ? { exit: update.exitStatus } : {}),
      ...(update.cancellable !== undefined ? { cancellable: update.cancellable } : {}),
    };
  }

  private stream(terminalId: string): TextDecoder {
    let decoder = this.streams.get(terminalId);
    if (!decoder) {
      decoder = new TextDecoder('utf-8');
      this.streams.set(terminalId, decoder);
    }
    return decoder;
  }
}

function bytes(base64: string): Uint8Array {
  return Buffer.from(base64, 'base64');
}
