/**
 * Loads the chat's page into a webview: its options (scripts on, resources only from dist/) and its HTML.
 * Both the early shell (src/boot/chat-view-shell.ts, before the rest of the extension has loaded) and a chat
 * binding use it, so a page the shell loaded is the page the binding would have loaded.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chatHtml } from './chat-html';
import { BOOT_SCRIPT, CHAT_SCRIPT, CHAT_STYLESHEET, PROMPT_GUARD_SCRIPT } from '../shared/webview-bundles';

/** The prompt's guard, by file: read once (a few hundred bytes; it goes into every chat page's HTML). */
const promptGuards = new Map<string, string>();

function promptGuard(distUri: vscode.Uri): string {
  const file = vscode.Uri.joinPath(distUri, PROMPT_GUARD_SCRIPT).fsPath;
  let source = promptGuards.get(file);
  if (source === undefined) {
    source = readFileSync(file, 'utf8');
    promptGuards.set(file, source);
  }
  return source;
}

export function loadChatPage(webview: vscode.Webview, extensionUri: vscode.Uri, previewHtml = ''): void {
  const distUri = vscode.Uri.joinPath(extensionUri, 'dist');
  webview.options = { enableScripts: true, localResourceRoots: [distUri] };
  webview.html = chatHtml({
    cspSource: webview.cspSource,
    nonce: randomBytes(16).toString('base64'),
    promptGuard: promptGuard(distUri),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(distUri, BOOT_SCRIPT)).toString(),
    chatScriptUri: webview.asWebviewUri(vscode.Uri.joinPath(distUri, CHAT_SCRIPT)).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(distUri, CHAT_STYLESHEET)).toString(),
    codiconsUri: webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'codicons', 'codicon.css')).toString(),
    previewHtml,
  });
}
