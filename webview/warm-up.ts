/**
 * The first chat of a page pays, in its first frame, for lit's first render of each vscode-element it shows (the
 * templates prepared, the element's styles parsed into a sheet) and for the browser's first styling of their
 * shadow roots. Where the conversation comes after the chat's script has loaded (the host still reading the
 * history after Reload Window, or a slow activation), the page is idle meanwhile: it draws one of each such control
 * out of sight then, so the chat's first frame finds them ready. Traced at 0.5 of the CPU's speed, that frame's
 * task had 13 ms of lit's first renders.
 */
import { iconButton, iconOnlyButton, textButton } from './dom';
import { afterNextPaint } from './host/after-paint';
import { BROWSER_PAINT_CLOCK } from './host/browser-paint-clock';

/** Out of sight and out of reach: not painted on screen, not focusable, not in the accessibility tree. */
const SHELF_STYLE =
  'position: fixed; left: -10000px; top: 0; width: 1px; height: 1px; overflow: hidden; visibility: hidden; contain: strict';

export function warmUpElements(): void {
  const shelf = document.createElement('div');
  shelf.inert = true;
  shelf.setAttribute('aria-hidden', 'true');
  shelf.style.cssText = SHELF_STYLE;
  shelf.append(
    iconOnlyButton('send', 'Send'),
    iconOnlyButton('debug-stop', 'Stop', { secondary: true }),
    textButton('Review', { secondary: true, icon: 'diff-multiple' }),
    iconButton('edit', 'Edit'),
  );
  // Nothing on the shelf answers to a control's name while it is there (for a moment: see below).
  for (const control of shelf.children) control.removeAttribute('aria-label');
  document.body.append(shelf);
  // lit renders them in this task's microtasks and the next frame styles them: after that frame, they go.
  afterNextPaint(() => shelf.remove(), BROWSER_PAINT_CLOCK);
}
