/**
 * Reads an attached file for embedding in a prompt: the editor's text when it is open (unsaved edits included,
 * the same view `fs/read_text_file` gives), else the file on disk. The user chose the file, so it need not be in
 * the workspace; but only `file:` URIs, only text, and only up to a size an agent's context can take.
 */
import { fileURLToPath } from 'node:url';
import type { WorkspaceFiles } from '../client/ports';
import type { AttachmentText } from './prompt-content';
import { errorMessage } from '../shared/error-text';

/** Larger files go as links: the agent can read what it needs of them itself. */
export const MAX_EMBEDDED_BYTES = 256 * 1024;

export function attachmentTextReader(files: WorkspaceFiles): AttachmentText {
  return async (uri) => {
    let absolutePath: string;
    try {
      absolutePath = fileURLToPath(uri);
    } catch {
      return { unavailable: 'it is not a local file' };
    }
    const open = files.openDocumentText(absolutePath);
    if (open !== undefined) return open.length > MAX_EMBEDDED_BYTES ? { unavailable: tooLarge() } : { text: open };
    try {
      if ((await files.fileSize(absolutePath)) > MAX_EMBEDDED_BYTES) return { unavailable: tooLarge() };
      const text = await files.readFileText(absolutePath);
      // Undecodable bytes (U+FFFD) or NULs: not text an agent can read.
      if (text.includes('\u0000') || text.includes('\uFFFD')) return { unavailable: 'it is not a text file' };
      return { text };
    } catch (error) {
      return { unavailable: `it cannot be read (${errorMessage(error)})` };
    }
  };
}

function tooLarge(): string {
  return `it is larger than ${MAX_EMBEDDED_BYTES / 1024} KB`;
}
