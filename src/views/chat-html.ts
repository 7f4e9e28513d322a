/**
 * The chat webview's HTML: a strict CSP (scripts only by nonce, styles and fonts only from the extension, images
 * only from the extension or data: URIs) and the bundle. Pure, so the CSP can be tested without VS Code.
 *
 * The prompt is in the HTML itself, so it is painted and takes typing in the page's first frame, before the host has
 * answered: the chat adopts it, with what was typed, once it has loaded (webview/chat-main.ts). Its guard
 * (webview/prompt-guard.ts, a few hundred bytes) is in the HTML too, under the nonce, so Enter and typing behave from
 * that frame on: the page's fetched scripts come through the workbench, up to 470 ms after the prompt was painted. Only the chat's stylesheet holds that first paint; the codicons' stylesheet is linked for
 * print, which does not block rendering, and the page's first script switches it on. The chat's own script (webview-chat.js, the
 * big one) is preloaded: fetched while the first frame is painted, run by the first script after it. Fetching it
 * only then took as long as the rest of the open (about a second under load in code-server, where each resource
 * comes through the workbench), so the restored conversation waited for it.
 */

export interface ChatHtmlOptions {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  /** Fresh per load; base64 or hex. */
  readonly nonce: string;
  /** The prompt's guard's source (dist/prompt-guard.js), put in the HTML itself. */
  readonly promptGuard: string;
  readonly scriptUri: string;
  /** The chat's script, which the first one runs after the first frame: fetched from the start. */
  readonly chatScriptUri: string;
  /** The chat's stylesheet (all of them in one file, media/chat-page.css). */
  readonly styleUri: string;
  /** codicon.css; its font is loaded relative to it. */
  readonly codiconsUri: string;
  /** A separately served vscode-elements bundle. Not needed: webview.js bundles the elements it uses. */
  readonly elementsUri?: string;
  /**
   * The conversation's saved preview as HTML (src/views/preview-html.ts), put where the transcript goes so that it is
   * on screen in the page's first frame. Built only from escaped text and the markdown renderer's output.
   */
  readonly previewHtml?: string;
}

/** Text for an HTML attribute's value (double-quoted) or an element's content. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A script's source as the text of a `<script>` element: the HTML parser ends the element at `</script`, and after
 * `<!--` a `<script` changes where it ends, whatever the JavaScript around them. `\x3C` is `<` in a JavaScript
 * string, template or regular expression (with or without the `u` flag), the only places a bundle has them.
 */
export function inlineScriptText(source: string): string {
  return source.replace(/<(\/?script|!--)/gi, '\\x3C$1');
}

export function chatHtml(options: ChatHtmlOptions): string {
  const nonce = escapeHtml(options.nonce);
  const source = options.cspSource;
  // vscode-elements styles its shadow roots through adoptable stylesheets, which style-src does not govern, so
  // no 'unsafe-inline' is needed.
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${options.nonce}'`,
    `style-src ${source}`,
    `font-src ${source}`,
    `img-src ${source} data:`,
  ].join('; ');
  const elementsScript = options.elementsUri ? `\n    <script nonce="${nonce}" src="${escapeHtml(options.elementsUri)}"></script>` : '';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link rel="stylesheet" id="vscode-codicon-stylesheet" href="${escapeHtml(options.codiconsUri)}" media="print">
    <link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
    <link rel="preload" as="script" href="${escapeHtml(options.chatScriptUri)}" nonce="${nonce}">
    <title>ACP: Chat</title>
  </head>
  <body>
    <div id="root"><main class="chat"><div class="transcript-area">${options.previewHtml ?? ''}</div><div class="composer"><div class="composer-box"><div class="composer-row"><div class="prompt-field"><textarea class="prompt-input" aria-label="Prompt" rows="1" placeholder="Ask the agent…" data-boot-prompt></textarea></div></div></div></div></main></div>
    <script nonce="${nonce}">${inlineScriptText(options.promptGuard)}</script>${elementsScript}
    <script nonce="${nonce}" src="${escapeHtml(options.scriptUri)}"></script>
  </body>
</html>
`;
}
