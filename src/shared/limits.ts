/**
 * Every size an agent controls that the transcript keeps, in one place. Each limit bounds memory and the work of
 * one update (the reducer runs on the host and again in the webview); what goes over is dropped visibly (the
 * entry is marked truncated and the view says so), never silently and never by failing the session.
 */

/**
 * Characters of one agent message or thought. A 2 MB streamed answer must still arrive whole (the webview renders
 * it incrementally), so the cap sits at twice that; past it an agent is looping, and a transcript of a few such
 * messages would still fit the host's memory.
 */
export const MAX_MESSAGE_CHARS = 4_000_000;

/**
 * Characters of one tool call's content (text blocks, diff texts, patches, embedded resources). A diff carries the
 * old and new text of a file, so 2 MB of characters shows a whole 1 MB source file changed; larger files are
 * generated and their diffs are not read by people anyway.
 */
export const MAX_TOOL_CONTENT_CHARS = 2_000_000;

/**
 * Tool calls one turn may add to the transcript. Long agentic turns run a few hundred; a thousand is a runaway,
 * and together with MAX_TOOL_CONTENT_CHARS it bounds what one turn can pile up.
 */
export const MAX_TOOL_CALLS_PER_TURN = 1_000;

/** Bytes of one `fs/read_text_file` answer by default (setting `acpClient.limits.maxReadMB`): more than any source
 * file an agent usefully reads whole, little enough to read and send without stalling the host. */
const DEFAULT_MAX_READ_MB = 10;
export const DEFAULT_MAX_READ_BYTES = DEFAULT_MAX_READ_MB * 1024 * 1024;

/** The setting's value in bytes; anything but a positive number falls back to the default. */
export function maxReadBytesFromSetting(megabytes: unknown): number {
  return typeof megabytes === 'number' && Number.isFinite(megabytes) && megabytes > 0
    ? Math.floor(megabytes * 1024 * 1024)
    : DEFAULT_MAX_READ_BYTES;
}

/** Keeps the first `limit` UTF-16 units of `text`, never ending inside a surrogate pair. */
export function headOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}

/**
 * Bytes a terminal keeps for `terminal/output` when the agent gives no `outputByteLimit` (and the most it may ask
 * for): a build's whole log, not an endless stream's.
 */
export const MAX_TERMINAL_OUTPUT_BYTES = 16 * 1024 * 1024;
