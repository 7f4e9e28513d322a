import * as assert from 'node:assert/strict';
import type { ToolCallStatus, ToolKind } from '../../../src/shared/model';
import { groupThousands } from '../../../src/shared/group-thousands';
import {
  compactionStatusLabel,
  compactNumber,
  permissionOptionStyle,
  stopReasonLabel,
  toolKindIcon,
  toolStatusLabel,
  usageLabel,
} from '../../../webview/labels';

describe('labels', () => {
  it('names every stop reason the spec defines, and nothing for a normal end', () => {
    assert.equal(stopReasonLabel('end_turn'), undefined);
    assert.equal(stopReasonLabel('cancelled'), 'Cancelled');
    assert.equal(stopReasonLabel('max_tokens'), 'Stopped: max tokens');
    assert.equal(stopReasonLabel('max_turn_requests'), 'Stopped: max turn requests');
    assert.equal(stopReasonLabel('refusal'), 'Refused');
  });

  it('shows custom (_-prefixed) and unknown stop reasons as a stop, in readable words', () => {
    assert.equal(stopReasonLabel('_vendor_budget'), 'Stopped: vendor budget');
    assert.equal(stopReasonLabel('something-new'), 'Stopped: something new');
    assert.equal(stopReasonLabel('_'), 'Stopped');
  });

  it('labels every tool status distinctly', () => {
    const statuses: ToolCallStatus[] = [
      'pending',
      'awaiting_permission',
      'in_progress',
      'paused',
      'completed',
      'failed',
      'rejected',
      'cancelled',
    ];
    const labels = statuses.map(toolStatusLabel);
    assert.equal(new Set(labels).size, statuses.length);
    assert.equal(toolStatusLabel('awaiting_permission'), 'Awaiting permission');
  });

  it('maps tool kinds to the agreed codicons', () => {
    const expected: [ToolKind, string][] = [
      ['read', 'eye'],
      ['edit', 'edit'],
      ['delete', 'trash'],
      ['move', 'arrow-right'],
      ['search', 'search'],
      ['execute', 'terminal'],
      ['think', 'lightbulb'],
      ['fetch', 'globe'],
      ['switch_mode', 'arrow-swap'],
      ['other', 'tools'],
    ];
    for (const [kind, iconName] of expected) assert.equal(toolKindIcon(kind), iconName);
  });

  it('styles allow options as primary and reject options as secondary, once and always apart', () => {
    assert.equal(permissionOptionStyle('allow_once').primary, true);
    assert.equal(permissionOptionStyle('allow_always').primary, true);
    assert.equal(permissionOptionStyle('reject_once').primary, false);
    assert.equal(permissionOptionStyle('reject_always').primary, false);
    assert.notEqual(permissionOptionStyle('allow_once').icon, permissionOptionStyle('allow_always').icon);
    assert.notEqual(permissionOptionStyle('reject_once').icon, permissionOptionStyle('reject_always').icon);
  });

  it('writes usage as used/size with the cost', () => {
    assert.equal(groupThousands(48_200), '48,200');
    assert.equal(groupThousands(1_234_567), '1,234,567');
    assert.equal(compactNumber(950), '950');
    assert.equal(compactNumber(1234), '1.2k');
    assert.equal(compactNumber(200_000), '200k');
    assert.equal(compactNumber(1_500_000), '1.5M');
    assert.equal(usageLabel({ used: 12_345, size: 200_000 }), '12k/200k');
    assert.equal(usageLabel({ used: 500, size: 8000, cost: { amount: 0.1234, currency: 'USD' } }), '500/8k · $0.12');
  });

  it('marks a compaction "Context compacted", names the other statuses, and a custom one in readable words', () => {
    assert.equal(compactionStatusLabel('completed'), 'Context compacted');
    assert.equal(compactionStatusLabel('in_progress'), 'Compacting context…');
    assert.equal(compactionStatusLabel('failed'), 'Context compaction failed');
    assert.equal(compactionStatusLabel('cancelled'), 'Context compaction cancelled');
    assert.equal(compactionStatusLabel('_vendor_paused'), 'Context compaction: vendor paused');
  });
});
