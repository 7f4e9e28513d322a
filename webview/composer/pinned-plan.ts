/**
 * The current plan, pinned above the composer so it stays in sight while the transcript scrolls: a one-line summary
 * with its progress ("2/5"), expanded on demand. Every plan also stays where it was sent in the transcript.
 */
import type { PlanEntry, TranscriptState } from '../../src/shared/model';
import { h, icon } from '../dom';
import { currentPlan, planProgress } from './plan-progress';
import { planBody } from '../transcript/simple-views';

export class PinnedPlan {
  readonly element = h('details', { className: 'pinned-plan' });
  private shown: PlanEntry | undefined;

  constructor() {
    this.element.hidden = true;
  }

  update(state: TranscriptState | undefined): void {
    const plan = state ? currentPlan(state) : undefined;
    if (plan === this.shown) return;
    this.shown = plan;
    this.element.hidden = !plan;
    if (!plan) return;
    const { done, total } = planProgress(plan);
    const summary = h(
      'summary',
      {},
      icon('checklist'),
      h('span', { className: 'pinned-plan-title', text: 'Plan' }),
      // Seen as "2/5", heard as "2 of 5 done". Not an aria-label on the summary: its name would differ from its text.
      h('span', {
        className: 'pinned-plan-progress',
        text: `${done}/${total}`,
        attrs: { role: 'img', 'aria-label': `${done} of ${total} done` },
      }),
    );
    this.element.replaceChildren(summary, h('div', { className: 'pinned-plan-body' }, planBody(plan.body)));
  }
}
