/**
 * What the user attaches to a prompt before sending it: files and selections (by URI, read by the host when the
 * prompt is built, so the agent gets the text as it is then), and pasted or dropped images and audio (carried as
 * base64). Shared by the composer (chips, draft) and the host (prompt building). Pure and DOM-free.
 */

/** 1-based, inclusive, as editors number lines. */
export interface LineRange {
  readonly startLine: number;
  readonly endLine: number;
}

export interface FileAttachment {
  readonly kind: 'file';
  /** A `file:` URI. */
  readonly uri: string;
  /** The path as the user knows it (relative to the workspace where it is inside one). */
  readonly label: string;
  /** Only these lines (a selection); absent = the whole file. */
  readonly range?: LineRange;
}

export interface MediaAttachment {
  readonly kind: 'image' | 'audio';
  readonly label: string;
  readonly mimeType: string;
  /** Base64, no data: prefix. */
  readonly data: string;
}

export type Attachment = FileAttachment | MediaAttachment;

export interface PromptCapabilities {
  readonly image: boolean;
  readonly audio: boolean;
  readonly embeddedContext: boolean;
}

/** Images and audio larger than this are refused when attached: agents' model APIs take a few MB at most. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** Identity for de-duplication: the same file, or the same lines of it, is attached once. */
export function attachmentKey(attachment: Attachment): string {
  if (attachment.kind !== 'file')
    return `${attachment.kind}:${attachment.mimeType}:${attachment.data.length}:${attachment.data.slice(0, 64)}`;
  return attachment.range ? `${attachment.uri}#L${attachment.range.startLine}-${attachment.range.endLine}` : attachment.uri;
}

/** What the chip says: the path, with the lines of a selection. */
export function attachmentTitle(attachment: Attachment): string {
  if (attachment.kind !== 'file' || !attachment.range) return attachment.label;
  const { startLine, endLine } = attachment.range;
  return startLine === endLine ? `${attachment.label}:${startLine}` : `${attachment.label}:${startLine}-${endLine}`;
}

/**
 * Why the agent cannot take this attachment, or undefined when it can. Files always can (as links at least);
 * images and audio only when the agent advertised them (a client MUST NOT send what was not advertised).
 */
export function refusalReason(attachment: Attachment, capabilities: PromptCapabilities, agentName: string): string | undefined {
  return attachment.kind === 'file' ? undefined : mediaRefusal(attachment.kind, attachment.label, capabilities, agentName);
}

export function mediaRefusal(
  kind: MediaAttachment['kind'],
  label: string,
  capabilities: PromptCapabilities,
  agentName: string,
): string | undefined {
  if (kind === 'image' && !capabilities.image) return `${agentName} does not accept images, so ${label} was not attached.`;
  if (kind === 'audio' && !capabilities.audio) return `${agentName} does not accept audio, so ${label} was not attached.`;
  return undefined;
}

/** Adds `incoming` after `current`, skipping what is already attached. */
export function withAttachments(current: readonly Attachment[], incoming: readonly Attachment[]): Attachment[] {
  const seen = new Set(current.map(attachmentKey));
  const added = incoming.filter((attachment) => {
    const key = attachmentKey(attachment);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...current, ...added];
}
