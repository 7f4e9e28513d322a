/**
 * The baseline for the open-time lines: the smallest webview view an extension can have, built and packaged at
 * bench time. Its own activity-bar container and one webview view whose page is a textarea (named "Prompt", like
 * ours), one stylesheet and one script from the extension, under a strict CSP, as VS Code's webview-view sample
 * is shaped. It activates when its view opens and does nothing else, so what it costs is what VS Code and the
 * browser cost: the bench sets our chat beside it in the same code-server and the same harness. Enter in its prompt
 * runs the bench's paced agent and streams its text into the page as plainly as a webview can take it: the streaming
 * lines' baseline (bench/webview/vscode-stream.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../test/support/repo-root';

/** The activity bar's label for the baseline's container (its icon's aria-label starts with it). */
export const BASELINE_TITLE = 'Baseline View';

const MANIFEST = {
  name: 'baseline-view',
  displayName: 'Baseline webview view',
  description: 'A textarea in a webview view: the open-time baseline of the ACP Client bench.',
  version: '0.0.1',
  publisher: 'acp-bench',
  license: 'MIT',
  engines: { vscode: '^1.100.0' },
  main: './extension.js',
  activationEvents: [],
  contributes: {
    viewsContainers: { activitybar: [{ id: 'acpBaseline', title: BASELINE_TITLE, icon: 'media/icon.svg' }] },
    views: { acpBaseline: [{ type: 'webview', id: 'acpBaseline.view', name: 'Prompt' }] },
  },
};

const EXTENSION_JS = `'use strict';
const vscode = require('vscode');
const crypto = require('crypto');
const childProcess = require('child_process');

// The streaming baseline: the bench's paced agent (our setting's "Paced" definition), its text posted to the page
// as each read brings it, with nothing else done.
function stream(view) {
  const agent = (vscode.workspace.getConfiguration('acpClient').get('agents') || {}).Paced;
  if (!agent) return;
  const child = childProcess.spawn(agent.command, agent.args || [], {
    env: Object.assign({}, process.env, agent.env || {}),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const send = (message) => child.stdin.write(JSON.stringify(Object.assign({ jsonrpc: '2.0' }, message)) + '\\n');
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (data) => {
    const lines = (rest + data).split('\\n');
    rest = lines.pop();
    let text = '';
    for (const line of lines) {
      if (!line) continue;
      const message = JSON.parse(line);
      if (message.id === 1) send({ id: 2, method: 'session/new', params: { cwd: process.cwd(), mcpServers: [] } });
      else if (message.id === 2) send({ id: 3, method: 'session/prompt', params: { sessionId: message.result.sessionId, prompt: [{ type: 'text', text: 'stream' }] } });
      else if (message.id === 3) child.kill();
      else if (message.method === 'session/update') text += message.params.update.content.text;
    }
    if (text) view.webview.postMessage({ type: 'text', text });
  });
  send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider('acpBaseline.view', {
      resolveWebviewView(view) {
        const media = vscode.Uri.joinPath(context.extensionUri, 'media');
        view.webview.options = { enableScripts: true, localResourceRoots: [media] };
        const nonce = crypto.randomBytes(16).toString('base64');
        const csp = "default-src 'none'; style-src " + view.webview.cspSource + "; script-src 'nonce-" + nonce + "'";
        const style = view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'view.css'));
        const script = view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'view.js'));
        view.webview.html = '<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">' +
          '<meta http-equiv="Content-Security-Policy" content="' + csp + '">' +
          '<link rel="stylesheet" href="' + style + '"><title>Baseline</title></head>' +
          '<body><textarea aria-label="Prompt" rows="3" placeholder="Ask…"></textarea>' +
          '<script nonce="' + nonce + '" src="' + script + '"></script></body></html>';
        view.webview.onDidReceiveMessage((message) => message && message.type === 'stream' && stream(view));
      },
    }),
  );
};
exports.deactivate = () => undefined;
`;

const VIEW_CSS = `body { padding: 8px; }
textarea { width: 100%; box-sizing: border-box; resize: vertical; font: inherit; color: var(--vscode-input-foreground);
  background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); }
`;

// The same mark our chat sets when its script has run (webview/main.ts): the harness reads both alike. Enter in the
// prompt streams (the stream bench's baseline): the text that arrived is appended in the next frame, a paragraph per
// blank line, in an element marked as our chat marks a message, so the same paint probe reads both.
const VIEW_JS = `performance.mark('acp:script-evaluated');
const api = acquireVsCodeApi();
const prompt = document.querySelector('textarea');
let message;
let paragraph;
prompt.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.shiftKey) return;
  event.preventDefault();
  api.postMessage({ type: 'stream' });
});
let pending = '';
// Drawn once per frame, as any page that streams draws (and as the paint probe expects: it reads a frame's changes
// just before that frame is painted).
function draw() {
  const texts = pending.split('\\n\\n');
  pending = '';
  if (!message) {
    message = document.createElement('div');
    message.setAttribute('data-entry-key', 'baseline');
    message.setAttribute('data-kind', 'message');
    document.body.append(message);
  }
  texts.forEach((text, index) => {
    if (index > 0 || !paragraph) {
      paragraph = document.createElement('p');
      message.append(paragraph);
    }
    if (text) paragraph.append(text);
  });
}
window.addEventListener('message', (event) => {
  if (!event.data || event.data.type !== 'text') return;
  if (!pending) requestAnimationFrame(draw);
  pending += event.data.text;
});
`;

const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="4" y="4" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2"/></svg>
`;

/** Writes the baseline's sources under `dir` and packages them; returns the .vsix path. */
export function packageBaselineExtension(dir: string): string {
  const source = path.join(dir, 'baseline-view');
  mkdirSync(path.join(source, 'media'), { recursive: true });
  writeFileSync(path.join(source, 'package.json'), JSON.stringify(MANIFEST, null, 2));
  writeFileSync(path.join(source, 'extension.js'), EXTENSION_JS);
  writeFileSync(path.join(source, 'README.md'), '# Baseline webview view\n\nThe open-time baseline of the ACP Client bench.\n');
  writeFileSync(path.join(source, 'media', 'view.css'), VIEW_CSS);
  writeFileSync(path.join(source, 'media', 'view.js'), VIEW_JS);
  writeFileSync(path.join(source, 'media', 'icon.svg'), ICON_SVG);
  const vsix = path.join(dir, 'baseline-view.vsix');
  execFileSync(
    path.join(repoRoot(), 'node_modules', '.bin', 'vsce'),
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix],
    { cwd: source, stdio: 'ignore' },
  );
  return vsix;
}
