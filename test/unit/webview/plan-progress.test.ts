import * as assert from 'node:assert/strict';
import type { PlanEntry, PlanEntryStatus } from '../../../src/shared/model';
import { currentPlan, planProgress } from '../../../webview/composer/plan-progress';
import { agentMessage, stateWith } from './support';

function plan(planId: string, statuses: readonly PlanEntryStatus[]): PlanEntry {
  return {
    kind: 'plan',
    key: `plan:${planId}`,
    planId,
    body: { type: 'items', items: statuses.map((status, index) => ({ content: `step ${index}`, priority: 'medium', status })) },
  };
}

describe('the plan pinned above the composer', () => {
  it('is the newest checklist plan, even with messages and a markdown plan after it', () => {
    const older = plan('a', ['completed']);
    const newer = plan('b', ['completed', 'in_progress', 'pending']);
    const notes: PlanEntry = { kind: 'plan', key: 'plan:notes', planId: 'notes', body: { type: 'markdown', markdown: '**notes**' } };
    assert.equal(currentPlan(stateWith([older, agentMessage('m1', 'hi'), newer, notes, agentMessage('m2', 'more')])), newer);
  });

  it('is absent when the transcript has no checklist plan', () => {
    assert.equal(currentPlan(stateWith([agentMessage('m1', 'hi')])), undefined);
  });

  it('counts completed steps against all steps ("2/5")', () => {
    assert.deepEqual(planProgress(plan('p', ['completed', 'completed', 'in_progress', 'pending', 'pending'])), { done: 2, total: 5 });
  });
});
