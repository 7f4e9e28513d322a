/** Hand-built transcript states for the webview's pure modules (independent of the real reducer). */
import type { Entry, TranscriptState } from '../../../src/shared/model';
import { fromEntries } from '../../../src/shared/pages';

export function stateWith(entries: readonly Entry[]): TranscriptState {
  return fromEntries(
    {
      pages: [],
      positions: [],
      entryCount: 0,
      turn: { phase: 'idle' },
      agent: { phase: 'ready', agentName: 'Test Agent' },
      commands: [],
      modes: undefined,
      configOptions: [],
      promptCapabilities: { image: false, audio: false, embeddedContext: false },
      promptMessageIds: {},
      terminals: {},
      nextLocalId: 0,
    },
    entries,
  );
}

export function agentMessage(id: string, text: string): Entry {
  return { kind: 'message', key: `msg:agent:${id}`, role: 'agent', messageId: id, content: [{ type: 'text', text }] };
}
