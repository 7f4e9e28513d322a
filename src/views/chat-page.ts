/**
 * Loads the chat's page into a webview: its options (scripts on, resources only from dist/) and its HTML.
 * Both the early shell (src/boot/chat-view-shell.ts, before the rest of the extension has loaded) and a chat
 * binding use it, so a page the shell loaded is the page the binding would have loaded.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chatHtml } from './chat-html';
import { BOOT_SCRIPT, CHAT_SCRIPT, CHAT_STYLESHEET } from '../shared/webview-bundles';

/** The page's first script, by file: read once (about 1 KB; it goes into every chat page's HTML). */
const bootScripts = new Map<string, string>();

function bootScript(distUri: vscode.Uri): string {
  const file = vscode.Uri.joinPath(distUri, BOOT_SCRIPT).fsPath;
  let source = bootScripts.get(file);
  if (source === undefined) {
    source = readFileSync(file, 'utf8');
    bootScripts.set(file, source);
  }
  return source;
}

export function loadChatPage(webview: vscode.Webview, extensionUri: vscode.Uri): void {
  const distUri = vscode.Uri.joinPath(extensionUri, 'dist');
  webview.options = { enableScripts: true, localResourceRoots: [distUri] };
  webview.html = chatHtml({
    cspSource: webview.cspSource,
    nonce: randomBytes(16).toString('base64'),
    bootScript: bootScript(distUri),
    chatScriptUri: webview.asWebviewUri(vscode.Uri.joinPath(distUri, CHAT_SCRIPT)).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(distUri, CHAT_STYLESHEET)).toString(),
    codiconsUri: webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'codicons', 'codicon.css')).toString(),
  });
}
