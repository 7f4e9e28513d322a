/**
 * The only state the webview keeps for itself (in `vscode.setState`, so it survives the view being hidden or
 * reloaded): the draft, what the user expanded, and where they were scrolled. Everything else comes from the
 * host. Pure and DOM-free.
 */

export interface ScrollPosition {
  /** Following the newest output. */
  readonly atBottom: boolean;
  /** Otherwise: the entry at the top of the viewport and how far (px) its top is above the viewport's top. */
  readonly anchorKey?: string;
  readonly anchorOffset?: number;
}

export interface UiState {
  readonly draft: string;
  readonly expandedThoughts: readonly string[];
  readonly expandedRaw: readonly string[];
  readonly scroll: ScrollPosition;
}

export function defaultUiState(): UiState {
  return { draft: '', expandedThoughts: [], expandedRaw: [], scroll: { atBottom: true } };
}

/** `getState()` returns whatever an earlier version stored: take what is well-formed, default the rest. */
export function parseUiState(stored: unknown): UiState {
  const fallback = defaultUiState();
  if (typeof stored !== 'object' || stored === null) return fallback;
  const record: Record<string, unknown> = { ...stored };
  const scroll = typeof record.scroll === 'object' && record.scroll !== null ? { ...record.scroll } : {};
  const scrollRecord: Record<string, unknown> = scroll;
  return {
    draft: typeof record.draft === 'string' ? record.draft : fallback.draft,
    expandedThoughts: stringList(record.expandedThoughts),
    expandedRaw: stringList(record.expandedRaw),
    scroll: {
      atBottom: typeof scrollRecord.atBottom === 'boolean' ? scrollRecord.atBottom : true,
      ...(typeof scrollRecord.anchorKey === 'string' ? { anchorKey: scrollRecord.anchorKey } : {}),
      ...(typeof scrollRecord.anchorOffset === 'number' ? { anchorOffset: scrollRecord.anchorOffset } : {}),
    },
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string').slice(-500) : [];
}

/** Adds or removes `key` from a persisted set, keeping it small. */
export function toggled(list: readonly string[], key: string): string[] {
  return list.includes(key) ? list.filter((item) => item !== key) : [...list, key].slice(-500);
}
