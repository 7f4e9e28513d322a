/** The preview a restored chat page shows in its HTML, before any script (issue 31). Both views' providers use it. */
import { previewToRestore } from '../shared/saved-preview';
import { readPreviewFile } from './preview-file';

/**
 * The preview to put in a restored page's HTML (src/views/preview-html.ts): the host's own (preview-file.ts, read from
 * `storageDir`), else the one in the page's saved state (VS Code hands it to a view resolving again: `context.state`),
 * or '' if there is none to show. A preview that cannot be drawn is left out: the page then waits for its scripts, as
 * it does without one.
 */
export async function savedPreviewHtml(savedState: unknown, storageDir?: string): Promise<string> {
  const fromHost = storageDir === undefined ? undefined : await readPreviewFile(storageDir);
  const preview = previewToRestore(savedState, fromHost);
  if (!preview) return '';
  try {
    const { previewHtml } = await import('./preview-html');
    return previewHtml(preview);
  } catch (error) {
    console.warn('ACP: the saved preview of the conversation could not be put in the page', error);
    return '';
  }
}
