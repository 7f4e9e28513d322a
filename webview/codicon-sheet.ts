/**
 * Every vscode-icon (the codicon in each vscode-button, each toolbar icon) styles its glyph with one stylesheet,
 * parsed once and adopted by all of them, instead of the `<link>` to codicon.css that vscode-icon puts in each
 * icon's shadow root. In VS Code a webview's files come through its service worker marked `Cache-Control: no-cache`,
 * so each new icon's link asked the workbench for codicon.css again (through the outer frame, on the workbench's
 * thread, the one a stream's posts wait on) and parsed its 600 rules again: a trace of a 10,000-entry snapshot
 * loading, the CPU at 0.5 of its speed, had four such parses of 1.7-6.8 ms in its first frames.
 *
 * The font itself is the page's: its @font-face is in the page's own link to codicon.css (a font face declared in a
 * shadow root is not used), so the adopted copy leaves it out.
 */
import { VscodeIcon } from '@vscode-elements/elements/dist/vscode-icon/vscode-icon.js';
import codiconCss from '@vscode/codicons/dist/codicon.css';

/** The codicons' rules without their @font-face (one block, no nested braces). */
function codiconRules(css: string): string {
  return css.replace(/@font-face\s*\{[^}]*\}/g, '');
}

/** Where vscode-icon asks for its link's address (vscode-icon.js 2.5): with none, its link has no href and loads nothing. */
const LINK_CONFIG = '_getStylesheetConfig';

/**
 * Called once, before the first icon is drawn (vscode-icon adopts its class's styles when an icon first connects).
 * Should vscode-elements stop asking in that way, icons keep their links: slower, still drawn.
 */
export function shareCodiconSheet(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(codiconRules(codiconCss));
  // An array of its own: vscode-icon's module defined the element, which set its styles (lit's finalize) already.
  VscodeIcon.elementStyles = [...VscodeIcon.elementStyles, sheet];
  if (typeof Reflect.get(VscodeIcon.prototype, LINK_CONFIG) === 'function')
    Object.defineProperty(VscodeIcon.prototype, LINK_CONFIG, { value: () => ({ href: undefined, nonce: undefined }) });
}
