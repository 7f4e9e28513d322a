/**
 * Draws a saved preview (src/shared/transcript-preview.ts) in the page's transcript area, with the chat's own transcript,
 * until the chat replaces the page's first content with the host's snapshot. Read-only (`inert`): its buttons would
 * act on entries the host has not confirmed yet. A preview that fails to draw is dropped: the view then waits for
 * the host, as it does without one.
 */
import type { TranscriptPreview } from '../../src/shared/saved-preview';
import { previewState } from '../../src/shared/transcript-preview';
import type { UiState } from '../host/ui-state';
import { VirtualTranscript } from './virtual-transcript';

export interface ShownPreview {
  /** Stops drawing; the chat's `replaceChildren` takes the element away. */
  dispose(): void;
}

export function showPreview(area: HTMLElement, preview: TranscriptPreview, ui: UiState): ShownPreview | undefined {
  let frame = 0;
  let transcript: VirtualTranscript | undefined;
  const stop = (): void => {
    cancelAnimationFrame(frame);
    transcript?.dispose();
    transcript?.element.remove();
    transcript = undefined;
  };
  const draw = (): void => {
    frame = 0;
    try {
      transcript?.render();
    } catch (error) {
      console.warn('The saved preview of the conversation could not be drawn; waiting for the extension.', error);
      stop();
    }
  };
  try {
    transcript = new VirtualTranscript(
      () => (frame ||= requestAnimationFrame(draw)),
      {
        expandedThoughts: new Set(ui.expandedThoughts),
        expandedRaw: new Set(ui.expandedRaw),
        streamingKey: undefined,
        answering: new Map(),
        terminals: preview.terminals,
      },
      { atBottom: true },
      () => undefined,
    );
    transcript.element.inert = true;
    transcript.element.setAttribute('aria-busy', 'true');
    transcript.setState(previewState(preview));
    area.replaceChildren(transcript.element);
  } catch (error) {
    console.warn('The saved preview of the conversation could not be read; waiting for the extension.', error);
    stop();
    return undefined;
  }
  return { dispose: stop };
}
