/**
 * Which notice's button (Restart agent, Stop agent) still applies, derived from state so an old notice can never
 * act on a newer agent process: only the newest notice with an action, and only while its situation lasts (restart
 * while the agent is exited, stop while it starts or ignores a cancel). Pure and DOM-free.
 */
import type { NoticeEntry, TranscriptState } from '../../src/shared/model';

/** How far back to look for a notice with an action: bounded work per state change in long transcripts. */
const SEARCH_DEPTH = 500;

export function liveNoticeKey(state: TranscriptState): string | undefined {
  const notice = newestActionNotice(state);
  if (!notice) return undefined;
  switch (notice.action) {
    case 'restart_agent':
      return state.agent.phase === 'exited' ? notice.key : undefined;
    case 'stop_agent':
      return state.agent.phase === 'starting' || state.turn.phase === 'cancelling' ? notice.key : undefined;
    case 'retry_start':
      return state.agent.phase === 'starting' ? notice.key : undefined;
    case 'sign_in':
      return state.agent.phase === 'needs_auth' ? notice.key : undefined;
    case undefined:
      return undefined;
  }
}

function newestActionNotice(state: TranscriptState): NoticeEntry | undefined {
  let seen = 0;
  for (let page = state.pages.length - 1; page >= 0; page--) {
    const entries = state.pages[page] ?? [];
    for (let index = entries.length - 1; index >= 0; index--) {
      const entry = entries[index];
      if (entry?.kind === 'notice' && entry.action) return entry;
      if (++seen >= SEARCH_DEPTH) return undefined;
    }
  }
  return undefined;
}
