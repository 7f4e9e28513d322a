/**
 * The chat webview's HTML: a strict CSP (scripts only by nonce, styles and fonts only from the extension, images
 * only from the extension or data: URIs) and the bundle. Pure, so the CSP can be tested without VS Code.
 */

export interface ChatHtmlOptions {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  /** Fresh per load; base64 or hex. */
  readonly nonce: string;
  readonly scriptUri: string;
  /** The chat's stylesheets, in cascade order (chat-styles.ts). */
  readonly styleUris: readonly string[];
  /** codicon.css; its font is loaded relative to it. */
  readonly codiconsUri: string;
  /** A separately served vscode-elements bundle. Not needed: webview.js bundles the elements it uses. */
  readonly elementsUri?: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function chatHtml(options: ChatHtmlOptions): string {
  const nonce = escapeAttribute(options.nonce);
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
  const elementsScript = options.elementsUri
    ? `\n    <script nonce="${nonce}" src="${escapeAttribute(options.elementsUri)}"></script>`
    : '';
  const styleLinks = options.styleUris.map((uri) => `<link rel="stylesheet" href="${escapeAttribute(uri)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link rel="stylesheet" id="vscode-codicon-stylesheet" href="${escapeAttribute(options.codiconsUri)}">
    ${styleLinks}
    <title>ACP: Chat</title>
  </head>
  <body>
    <div id="root"></div>${elementsScript}
    <script nonce="${nonce}" src="${escapeAttribute(options.scriptUri)}"></script>
  </body>
</html>
`;
}
