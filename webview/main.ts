/** Entry point of the chat webview bundle (dist/webview.js). */
import { reduce } from '../src/shared/reducer';
import { ChatApp, type ChatStats } from './app';
import './elements';
import { connectToHost, isHostMessage } from './vscode-api';

declare global {
  interface Window {
    /** Render counters for benchmarks and end-to-end tests. */
    __acpChat?: ChatStats;
  }
}

const channel = connectToHost();
const app = new ChatApp(channel, reduce);
(document.getElementById('root') ?? document.body).append(app.element);
window.__acpChat = app.stats;
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isHostMessage(event.data)) app.handle(event.data);
});
channel.post({ type: 'ready' });
