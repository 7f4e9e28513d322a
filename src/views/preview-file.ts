/**
 * The host's own copy of the chat's preview (src/shared/transcript-preview.ts), drawn as the page's HTML already
 * (preview-html.ts), in a file beside the history, for the page after a reload. The page keeps one in its saved state too, but that is VS Code's to keep, in the
 * browser's storage when the workbench runs in a browser (code-server, Codespaces), and it does not always come back:
 * the open bench's first browser reload after a conversation was made restored no preview in 2 of 2 runs (the chat
 * on screen 0.5-0.6 s later, from the host's snapshot). This file is on the extension host's disk, as new as the
 * host's transcript: written while the shown conversation changes (at most once a second, preview-keeper.ts) and as
 * the extension deactivates.
 *
 * Drawn when written, not when read: the restored window's extension host, busy starting, took 40-190 ms to load
 * markdown-it and draw a 5 KB preview from the saved state before it could hand the page its HTML (the open bench's
 * reloads), where reading this file takes a millisecond.
 *
 * Read by the first bundle as the view resolves: a regular file only (opened without following a link), at most
 * MAX_FILE_BYTES, and only HTML that preview-html.ts made (its outer element); it is in the extension's own storage,
 * which no workspace writes, and the page's CSP runs no script it could hold.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { suffixedFolder } from '../history/stand-in-folder';
import { LOCK_FILE, lockVerdict, processAlive, readLock } from '../history/storage-lock';

export const PREVIEW_FILE = 'chat-preview.json';
/** The preview's HTML is 96 KB at most (preview-html.ts); anything much larger is not one of ours. */
const MAX_FILE_BYTES = 256 * 1024;
/** How preview-html.ts's HTML begins. */
const PREVIEW_HTML_START = '<div class="transcript boot-preview"';

/** A conversation's preview as the page's HTML, and which conversation it is of. */
export interface HostPreview {
  readonly conversationId: string;
  readonly html: string;
}

/**
 * The preview the host last wrote for this workspace, given the extension's storage folder as VS Code gave it
 * (`workspaceStorage/<folder>/<extension>`). After a fast reload on a remote VS Code gives a stand-in folder `<id>-N`
 * while the old window lets go of `<id>` (storage-folder.ts), which this window then takes, with its history and
 * preview: read there once the old window is letting go. Not while a window holds `<id>` with no release in sight: that
 * is another window on the workspace (a second browser tab), whose conversation this window will not show.
 */
export async function readPreviewFile(given: string): Promise<HostPreview | undefined> {
  const own = readOne(path.join(given, PREVIEW_FILE));
  if (own) return own;
  const folder = path.dirname(given);
  const standIn = suffixedFolder(path.basename(folder));
  if (!standIn) return undefined;
  const baseFolder = path.join(path.dirname(folder), standIn.base);
  const holder = lockVerdict(await readLock(path.join(baseFolder, LOCK_FILE)), Date.now(), processAlive);
  return holder.kind === 'held' ? undefined : readOne(path.join(baseFolder, path.basename(given), PREVIEW_FILE));
}

/**
 * Synchronous on purpose: a few kilobytes read in well under a millisecond, where the same read through the thread
 * pool waited 150-180 ms behind what a starting extension host has queued there (the open bench's reloads).
 */
function readOne(file: string): HostPreview | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    const stat = fstatSync(descriptor);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    const read: unknown = JSON.parse(readFileSync(descriptor, 'utf8'));
    const conversationId: unknown = typeof read === 'object' && read !== null ? Reflect.get(read, 'conversationId') : undefined;
    const html: unknown = typeof read === 'object' && read !== null ? Reflect.get(read, 'html') : undefined;
    if (typeof conversationId !== 'string' || typeof html !== 'string' || !html.startsWith(PREVIEW_HTML_START)) return undefined;
    return { conversationId, html };
  } catch {
    return undefined; // none yet, a link, or not ours to read: the page waits for the host, as without one
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Writes the preview into `dir` (or removes it: a conversation with nothing to preview must not show the last one's).
 * Synchronous, so that the last one is on disk when deactivate returns; a temporary file renamed over the old one, so
 * that a window reading it meanwhile gets one whole preview or the other.
 */
export function writePreviewFile(dir: string, preview: HostPreview | undefined): void {
  const { file, temporary } = previewFileSlots(dir, '');
  if (!preview?.html) return rmSync(file, { force: true });
  writeFileSync(temporary, JSON.stringify(preview), PREVIEW_WRITE_OPTIONS);
  renameSync(temporary, file);
}

/**
 * The preview's file in `dir`, and the temporary a write renames over it: named after this process and `tag`, so
 * that two writes of this process that may overlap (preview-file-writer.ts) never share one.
 */
export function previewFileSlots(dir: string, tag: string): { readonly file: string; readonly temporary: string } {
  const file = path.join(dir, PREVIEW_FILE);
  return { file, temporary: `${file}.${process.pid}${tag}.tmp` };
}

/** The preview holds the user's conversation: only they read it. */
export const PREVIEW_WRITE_OPTIONS = { mode: 0o600 } as const;
