/** What the UI calls things: stop reasons, statuses, icons. Pure and DOM-free. */
import type { NoticeAction, NoticeSeverity, PermissionOptionKind, PlanEntryStatus, ToolCallStatus, ToolKind } from '../src/shared/model';

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

/** Each tool status's words and badge codicon (the in-progress one spins): a table, so none can be missed. */
const TOOL_STATUS: Record<ToolCallStatus, { readonly label: string; readonly icon: string }> = {
  pending: { label: 'Pending', icon: 'clock' },
  awaiting_permission: { label: 'Awaiting permission', icon: 'shield' },
  in_progress: { label: 'In progress', icon: 'loading' },
  paused: { label: 'Paused', icon: 'debug-pause' },
  completed: { label: 'Completed', icon: 'check' },
  failed: { label: 'Failed', icon: 'error' },
  rejected: { label: 'Rejected', icon: 'circle-slash' },
  cancelled: { label: 'Cancelled', icon: 'close' },
};

export function toolStatusLabel(status: ToolCallStatus): string {
  return TOOL_STATUS[status].label;
}

export function toolStatusIcon(status: ToolCallStatus): string {
  return TOOL_STATUS[status].icon;
}

const TOOL_KIND_ICON: Record<ToolKind, string> = {
  read: 'eye',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-right',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'arrow-swap',
  other: 'tools',
};

export function toolKindIcon(kind: ToolKind): string {
  return TOOL_KIND_ICON[kind];
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

const PLAN_STATUS: Record<PlanEntryStatus, { readonly label: string; readonly icon: string }> = {
  pending: { label: 'Pending', icon: 'circle-large-outline' },
  in_progress: { label: 'In progress', icon: 'arrow-circle-right' },
  completed: { label: 'Completed', icon: 'pass-filled' },
};

export function planStatusIcon(status: PlanEntryStatus): string {
  return PLAN_STATUS[status].icon;
}

export function planStatusLabel(status: PlanEntryStatus): string {
  return PLAN_STATUS[status].label;
}

/** The codicons are named after the severities. */
export function severityIcon(severity: NoticeSeverity): string {
  return severity;
}

/** A notice's button: its words, codicon, whether it is the secondary kind, and the data-action app.ts routes. */
export const NOTICE_ACTIONS: Readonly<
  Record<NoticeAction, { readonly label: string; readonly icon: string; readonly secondary: boolean; readonly dataAction: string }>
> = {
  restart_agent: { label: 'Restart agent', icon: 'debug-restart', secondary: false, dataAction: 'restart-agent' },
  stop_agent: { label: 'Stop agent', icon: 'debug-stop', secondary: true, dataAction: 'stop-agent' },
  sign_in: { label: 'Sign in…', icon: 'sign-in', secondary: false, dataAction: 'sign-in' },
  retry_start: { label: 'Retry', icon: 'refresh', secondary: false, dataAction: 'retry-start' },
};

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

/**
 * The transcript's marker for a context compaction (ACP `compaction_update`): the spec's statuses, and a custom or
 * future one in readable words, as stop reasons are.
 */
export function compactionStatusLabel(status: string): string {
  switch (status) {
    case 'in_progress':
      return 'Compacting context…';
    case 'completed':
      return 'Context compacted';
    case 'failed':
      return 'Context compaction failed';
    case 'cancelled':
      return 'Context compaction cancelled';
    default: {
      const words = status.replace(/^_+/, '').replace(/[_-]+/g, ' ').trim().slice(0, 80);
      return words ? `Context compaction: ${words}` : 'Context compaction';
    }
  }
}
