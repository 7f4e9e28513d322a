/** Hand-built transcript states for the webview's pure modules (independent of the real reducer). */
import { ENTRY_PAGE_SIZE, type Entry, type TranscriptState } from '../../../src/shared/model';

export function stateWith(entries: readonly Entry[]): TranscriptState {
  const pages: Entry[][] = [];
  for (let i = 0; i < entries.length; i += ENTRY_PAGE_SIZE) pages.push(entries.slice(i, i + ENTRY_PAGE_SIZE));
  const positions: Record<string, number> = {};
  entries.forEach((entry, index) => (positions[entry.key] = index));
  return {
    pages,
    positions,
    entryCount: entries.length,
    turn: { phase: 'idle' },
    agent: { phase: 'ready', agentName: 'Test Agent' },
    commands: [],
    modes: undefined,
    configOptions: [],
    promptCapabilities: { image: false, audio: false, embeddedContext: false },
    nextLocalId: 0,
  };
}

export function agentMessage(id: string, text: string): Entry {
  return { kind: 'message', key: `msg:agent:${id}`, role: 'agent', messageId: id, content: [{ type: 'text', text }] };
}
