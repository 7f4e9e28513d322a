/**
 * What VS Code loads when the extension starts: small on purpose (issue 31). VS Code asks for the chat view's HTML
 * only once `activate` has returned, and compiling and running the whole extension first (0.1-0.5 s while the
 * browser and the workbench start, on these 2-core machines) held the chat's first paint. So this registers a
 * stand-in for the chat view that loads its page at once, and a stand-in for each contributed command, and loads
 * the rest (dist/extension-main.js, src/extension-main.ts) right after the page is on its way, or on first use of a
 * command or the API, or at the latest LOAD_AT_LATEST_MS after activation (the Sessions view shown alone).
 */
import * as vscode from 'vscode';
import type { AcpClientApi } from './api';
import { ChatViewShell } from './boot/chat-view-shell';
import { forwardCommands } from './boot/command-forwarders';
import { contributedCommandIds } from './boot/contributed-commands';
import { lazyApi } from './boot/lazy-api';
import type * as ExtensionMain from './extension-main';
import { CHAT_VIEW_ID } from './views/chat-page';

/**
 * The rest loads by then even if nothing asked. Long enough for VS Code to ask for a chat view that is being shown
 * (after a Reload Window its busy workbench took up to 460 ms to pass a message on), short enough for what else
 * waits: VS Code says a view has no data provider only 2 s after activation (the Sessions view shown alone), and a
 * restored chat panel waits for its serializer.
 */
const LOAD_AT_LATEST_MS = 1_000;

let main: typeof ExtensionMain | undefined;

export function activate(context: vscode.ExtensionContext): AcpClientApi {
  const activated = performance.now();
  const shell = new ChatViewShell(context.extensionUri);
  const forwarders = forwardCommands(contributedCommandIds(context.extension.packageJSON), () => void load());
  let api: AcpClientApi | undefined;
  const load = (): AcpClientApi => {
    if (api) return api;
    // First, in this same step: the real commands take these ids, and a stand-in must never call itself.
    forwarders.dispose();
    clearTimeout(atLatest);
    const loadStarted = performance.now();
    // A file of its own next to this one (esbuild.mjs), loaded synchronously: a command or an API call that
    // arrives first needs it now.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    main = require('./extension-main') as typeof ExtensionMain;
    api = main.activateMain(context, shell, { activated, loadStarted });
    return api;
  };
  // After the page's HTML has left for the workbench: this host writes its messages out on a zero-delay timer, and
  // timers run in the order they were set.
  shell.onEarlyView = () => void setTimeout(load, 0);
  const atLatest = setTimeout(load, LOAD_AT_LATEST_MS);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, shell), forwarders, {
    dispose: () => clearTimeout(atLatest),
  });
  return lazyApi(load);
}

export function deactivate(): void {
  main?.deactivateMain();
}
