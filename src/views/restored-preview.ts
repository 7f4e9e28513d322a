/** The preview a restored chat page shows in its HTML, before any script (issue 31). Both views' providers use it. */
import { previewOnScreen, scrolledUp } from '../shared/saved-preview';
import { readPreviewFile } from './preview-file';

/**
 * The preview to put in a restored page's HTML (src/views/preview-html.ts): the host's own, drawn already
 * (preview-file.ts, read from `storageDir`), else the one in the page's saved state (VS Code hands it to a view resolving again: `context.state`),
 * or '' if there is none to show. A preview that cannot be drawn is left out: the page then waits for its scripts, as
 * it does without one.
 */
export async function savedPreviewHtml(savedState: unknown, storageDir?: string): Promise<string> {
  return (await restoredPreview(savedState, storageDir)).html;
}

/** Where a restored page's preview came from (the log says, issue 31). */
export type PreviewSource = 'host' | 'saved state' | 'none';

/** savedPreviewHtml, and where the preview came from. */
export async function restoredPreview(
  savedState: unknown,
  storageDir?: string,
): Promise<{ readonly html: string; readonly from: PreviewSource }> {
  // The host's, as new as its transcript was, where the page's saved state may be older or gone; not for a
  // conversation the page says was scrolled up (it reopens where it was, which a preview does not hold).
  const fromHost = storageDir === undefined ? undefined : await readPreviewFile(storageDir);
  if (fromHost && !scrolledUp(savedState, fromHost.conversationId)) return { html: fromHost.html, from: 'host' };
  const preview = previewOnScreen(savedState);
  if (!preview) return { html: '', from: 'none' };
  try {
    const { previewHtml } = await import('./preview-html');
    return { html: previewHtml(preview), from: 'saved state' };
  } catch (error) {
    console.warn('ACP: the saved preview of the conversation could not be put in the page', error);
    return { html: '', from: 'none' };
  }
}
