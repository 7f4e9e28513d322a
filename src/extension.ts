/**
 * What VS Code loads when the extension starts: small on purpose (issue 31). VS Code asks for the chat view's HTML
 * only once `activate` has returned, and compiling and running the whole extension first (0.1-0.5 s while the
 * browser and the workbench start, on these 2-core machines) held the chat's first paint. So this registers a
 * stand-in for the chat view that loads its page at once, one for the Sessions view's data, and one for each
 * contributed command, and loads the rest (dist/extension-main.js, src/extension-main.ts):
 *   - once the chat's page has posted its first message (its prompt is on screen). Not as soon as its HTML has
 *     left: on a cold start VS Code's webview waits 0.3-3 s for its service worker before it makes the page, and
 *     loading and starting the rest meanwhile (the workbench taking its commands and views, history read, file
 *     watchers) put the page 1.1 s later, median of 12 opens (2.7 s against 1.55 s with the rest held back);
 *   - on first use of a command or the API;
 *   - at the latest LOAD_AT_LATEST_MS after activation when no chat page is coming (the Sessions view shown
 *     alone), or PAGE_SILENT_AT_MOST_MS after one was asked for that never spoke.
 */
import * as vscode from 'vscode';
import type { AcpClientApi } from './api';
import { ChatViewShell } from './boot/chat-view-shell';
import { forwardCommands } from './boot/command-forwarders';
import { contributedCommandIds } from './boot/contributed-commands';
import { DeferredTree } from './boot/deferred-tree';
import { lazyApi } from './boot/lazy-api';
import type * as ExtensionMain from './extension-main';
import { CHAT_VIEW_ID, SESSIONS_VIEW_ID } from './shared/view-ids';

/**
 * The rest loads by then if no chat page is coming. Long enough for VS Code to ask for a chat view that is being
 * shown (after a Reload Window its busy workbench took up to 460 ms to pass a message on); short enough for what
 * else waits: a restored chat panel waits for its serializer, the Sessions view shown alone for its sessions.
 */
const LOAD_AT_LATEST_MS = 1_000;
/** A chat page asked for and silent this long (a cold start's page came after up to 3.1 s here): load anyway. */
const PAGE_SILENT_AT_MOST_MS = 8_000;

let main: typeof ExtensionMain | undefined;

export function activate(context: vscode.ExtensionContext): AcpClientApi {
  const activated = performance.now();
  const storage = context.storageUri;
  const shell = new ChatViewShell(context.extensionUri, storage?.scheme === 'file' ? storage.fsPath : undefined);
  const sessionsTree = new DeferredTree<unknown>();
  const forwarders = forwardCommands(
    contributedCommandIds(context.extension.packageJSON),
    (command) => void load(`the command ${command}`),
  );
  let api: AcpClientApi | undefined;
  const load = (reason: string): AcpClientApi => {
    if (api) return api;
    // First, in this same step: the real commands take these ids, and a stand-in must never call itself.
    forwarders.dispose();
    clearTimeout(atLatest);
    const loadStarted = performance.now();
    // A file of its own next to this one (esbuild.mjs), loaded synchronously: a command or an API call that
    // arrives first needs it now.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    main = require('./extension-main') as typeof ExtensionMain;
    api = main.activateMain(context, { shell, sessionsTree }, { activated, loadStarted, reason });
    return api;
  };
  let atLatest = setTimeout(() => load('no chat page asked for'), LOAD_AT_LATEST_MS);
  shell.onEarlyView = () => {
    clearTimeout(atLatest);
    atLatest = setTimeout(() => load('the chat page silent'), PAGE_SILENT_AT_MOST_MS);
  };
  // After the message's own handling: the page's messages are kept for the chat either way.
  shell.onEarlyViewSpoke = () => void setTimeout(() => load('the chat page'), 0);
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, shell),
    vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: sessionsTree }),
    sessionsTree,
    forwarders,
    { dispose: () => clearTimeout(atLatest) },
  );
  return lazyApi(load);
}

export function deactivate(): void {
  main?.deactivateMain();
}
