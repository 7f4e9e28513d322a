/** What the UI calls things: stop reasons, statuses, icons. Pure and DOM-free. */
import type { NoticeSeverity, PermissionOptionKind, PlanEntryStatus, ToolCallStatus, ToolKind } from '../src/shared/model';

/** The line shown when a turn ends, or undefined when a normal end needs no line. */
export function stopReasonLabel(stopReason: string): string | undefined {
  switch (stopReason) {
    case 'end_turn':
      return undefined;
    case 'cancelled':
      return 'Cancelled';
    case 'max_tokens':
      return 'Stopped: max tokens';
    case 'max_turn_requests':
      return 'Stopped: max turn requests';
    case 'refusal':
      return 'Refused';
    default: {
      // Custom (`_`-prefixed) and future reasons: the agent's own words, readable, are better than nothing.
      const words = stopReason.replace(/^_+/, '').replace(/[_-]+/g, ' ').trim().slice(0, 80);
      return words ? `Stopped: ${words}` : 'Stopped';
    }
  }
}

export function toolStatusLabel(status: ToolCallStatus): string {
  switch (status) {
    case 'pending':
      return 'Pending';
    case 'awaiting_permission':
      return 'Awaiting permission';
    case 'in_progress':
      return 'In progress';
    case 'paused':
      return 'Paused';
    case 'completed':
      return 'Completed';
    case 'failed':
      return 'Failed';
    case 'rejected':
      return 'Rejected';
    case 'cancelled':
      return 'Cancelled';
  }
}

/** Codicon for a status badge; the in-progress one spins. */
export function toolStatusIcon(status: ToolCallStatus): string {
  switch (status) {
    case 'pending':
      return 'clock';
    case 'awaiting_permission':
      return 'shield';
    case 'in_progress':
      return 'loading';
    case 'paused':
      return 'debug-pause';
    case 'completed':
      return 'check';
    case 'failed':
      return 'error';
    case 'rejected':
      return 'circle-slash';
    case 'cancelled':
      return 'close';
  }
}

export function toolKindIcon(kind: ToolKind): string {
  switch (kind) {
    case 'read':
      return 'eye';
    case 'edit':
      return 'edit';
    case 'delete':
      return 'trash';
    case 'move':
      return 'arrow-right';
    case 'search':
      return 'search';
    case 'execute':
      return 'terminal';
    case 'think':
      return 'lightbulb';
    case 'fetch':
      return 'globe';
    case 'switch_mode':
      return 'arrow-swap';
    case 'other':
      return 'tools';
  }
}

export function permissionOptionStyle(kind: PermissionOptionKind): { readonly primary: boolean; readonly icon: string } {
  switch (kind) {
    case 'allow_once':
      return { primary: true, icon: 'check' };
    case 'allow_always':
      return { primary: true, icon: 'check-all' };
    case 'reject_once':
      return { primary: false, icon: 'close' };
    case 'reject_always':
      return { primary: false, icon: 'circle-slash' };
  }
}

export function planStatusIcon(status: PlanEntryStatus): string {
  switch (status) {
    case 'pending':
      return 'circle-large-outline';
    case 'in_progress':
      return 'arrow-circle-right';
    case 'completed':
      return 'pass-filled';
  }
}

export function planStatusLabel(status: PlanEntryStatus): string {
  switch (status) {
    case 'pending':
      return 'Pending';
    case 'in_progress':
      return 'In progress';
    case 'completed':
      return 'Completed';
  }
}

export function severityIcon(severity: NoticeSeverity): string {
  switch (severity) {
    case 'info':
      return 'info';
    case 'warning':
      return 'warning';
    case 'error':
      return 'error';
  }
}

export function noticeActionLabel(action: 'restart_agent' | 'stop_agent'): string {
  return action === 'restart_agent' ? 'Restart agent' : 'Stop agent';
}

/** 48200 -> "48,200". Not toLocaleString: its first call loads locale data, a long task in a webview. */
export function groupThousands(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** 1234 -> "1.2k", 200000 -> "200k". */
export function compactNumber(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${trimZero((value / 1000).toFixed(value < 10_000 ? 1 : 0))}k`;
  return `${trimZero((value / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

export function usageLabel(usage: { used: number; size: number; cost?: { amount: number; currency: string } }): string {
  const tokens = `${compactNumber(usage.used)}/${compactNumber(usage.size)}`;
  if (!usage.cost) return tokens;
  return `${tokens} · ${formatCost(usage.cost.amount, usage.cost.currency)}`;
}

function formatCost(amount: number, currency: string): string {
  if (currency.toUpperCase() === 'USD') return `$${amount.toFixed(2)}`;
  return `${amount.toFixed(2)} ${currency}`;
}
