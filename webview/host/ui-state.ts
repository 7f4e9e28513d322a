/**
 * The only state the webview keeps for itself (in `vscode.setState`, so it survives the view being hidden or
 * reloaded): the draft, what the user expanded, and where they were scrolled. Everything else comes from the
 * host. Pure and DOM-free.
 */
import type { Attachment } from '../../src/shared/attachments';

export interface ScrollPosition {
  /** Following the newest output. */
  readonly atBottom: boolean;
  /** Otherwise: the entry at the top of the viewport and how far (px) its top is above the viewport's top. */
  readonly anchorKey?: string;
  readonly anchorOffset?: number;
}

export interface UiState {
  readonly draft: string;
  /** The draft's attachments (files by URI, pasted images as base64). */
  readonly attachments: readonly Attachment[];
  readonly expandedThoughts: readonly string[];
  readonly expandedRaw: readonly string[];
  readonly scroll: ScrollPosition;
  /** Notices (banners) the user dismissed, by banner key: a dismissal lasts as long as the session is shown. */
  readonly dismissedBanners?: readonly string[];
}

export function defaultUiState(): UiState {
  return { draft: '', attachments: [], expandedThoughts: [], expandedRaw: [], scroll: { atBottom: true } };
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
    attachments: Array.isArray(record.attachments)
      ? record.attachments.map(parseAttachment).filter((item): item is Attachment => item !== undefined)
      : [],
    expandedThoughts: stringList(record.expandedThoughts),
    expandedRaw: stringList(record.expandedRaw),
    ...(Array.isArray(record.dismissedBanners) ? { dismissedBanners: stringList(record.dismissedBanners).slice(-50) } : {}),
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

function parseAttachment(stored: unknown): Attachment | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const record: Record<string, unknown> = { ...stored };
  const { kind, label } = record;
  if (typeof label !== 'string') return undefined;
  if (kind === 'file' && typeof record.uri === 'string') {
    const range = parseRange(record.range);
    return { kind, uri: record.uri, label, ...(range ? { range } : {}) };
  }
  if ((kind === 'image' || kind === 'audio') && typeof record.mimeType === 'string' && typeof record.data === 'string') {
    return { kind, label, mimeType: record.mimeType, data: record.data };
  }
  return undefined;
}

function parseRange(stored: unknown): { startLine: number; endLine: number } | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const record: Record<string, unknown> = { ...stored };
  const { startLine, endLine } = record;
  if (
    typeof startLine !== 'number' ||
    typeof endLine !== 'number' ||
    !Number.isInteger(startLine) ||
    !Number.isInteger(endLine) ||
    startLine < 1 ||
    endLine < startLine
  )
    return undefined;
  return { startLine, endLine };
}
