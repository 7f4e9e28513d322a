/** The plan the composer pins: the newest checklist plan (markdown and file plans stay in the transcript) in the transcript, and how far it got. Pure and DOM-free. */
import type { PlanEntry, TranscriptState } from '../../src/shared/model';

/** How far back from the newest entry to look for a plan: bounded work per state change in long transcripts. */
const SEARCH_DEPTH = 500;

export function currentPlan(state: TranscriptState): PlanEntry | undefined {
  let seen = 0;
  for (let page = state.pages.length - 1; page >= 0; page--) {
    const entries = state.pages[page] ?? [];
    for (let index = entries.length - 1; index >= 0; index--) {
      const entry = entries[index];
      if (entry?.kind === 'plan' && entry.body.type === 'items') return entry;
      if (++seen >= SEARCH_DEPTH) return undefined;
    }
  }
  return undefined;
}

export function planProgress(plan: PlanEntry): { readonly done: number; readonly total: number } {
  if (plan.body.type !== 'items') return { done: 0, total: 0 };
  return { done: plan.body.items.filter((item) => item.status === 'completed').length, total: plan.body.items.length };
}
