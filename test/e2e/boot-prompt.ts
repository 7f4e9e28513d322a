/**
 * The prompt before the chat has loaded, in Chromium with the real bundles and the real HTML (src/views/chat-html.ts)
 * under its CSP, served over HTTP with the page's fetched scripts held back: the prompt is on screen and takes typing
 * before even the first of them arrives, Enter pressed then is not a newline (the HTML's own guard), and once the chat
 * has loaded and the host has answered `ready`, what was typed is the draft (the host hears it) or, after Enter, is
 * sent. A stand-in for VS Code's webview API records what the page posts. Screenshot: test-results/e2e-boot-prompt.png.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { initialState } from '../../src/shared/reducer';
import type { HostToWebviewMessage } from '../../src/shared/webview-protocol';
import { CHAT_STYLESHEET, PROMPT_GUARD_SCRIPT } from '../../src/shared/webview-bundles';
import { chatHtml } from '../../src/views/chat-html';
import { launchBrowser } from '../support/browser';
import { E2E_RESULTS } from '../support/e2e-home';
import { removeOnSuccess } from '../support/remove-on-success';
import { repoRoot } from '../support/repo-root';

const NONCE = 'bootnonce';
/** Stands in for VS Code's API: records every message the page posts. */
const FAKE_API = `window.__posted = []; window.acquireVsCodeApi = () => ({
  postMessage: (message) => window.__posted.push(message), getState: () => undefined, setState: () => undefined });`;

function check(name: string): void {
  console.log(`  ✔ ${name}`);
}

/**
 * Serves the chat page and dist/; the page's first fetched script waits until `releaseFirst()`, the chat's until
 * `releaseChat()`. `chatRequests()` says how often the chat's script was asked for, and whether before the first
 * script was served (so by the HTML's preload, not by that script).
 */
async function serve(): Promise<{
  url: string;
  releaseFirst: () => void;
  releaseChat: () => void;
  close: () => void;
  chatRequests: () => { count: number; early: boolean };
  /** How often codicon.css was asked for. */
  codiconRequests: () => number;
}> {
  const root = repoRoot();
  let releaseFirst: () => void = () => undefined;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  let releaseChat: () => void = () => undefined;
  const chatHeld = new Promise<void>((resolve) => (releaseChat = resolve));
  const chat = { count: 0, early: false };
  let codiconRequests = 0;
  let firstServed = false;
  const send = (response: ServerResponse, type: string, body: string | Buffer): void => {
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(body);
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const origin = `http://${request.headers.host ?? 'localhost'}`;
    if (url.pathname === '/') {
      const html = chatHtml({
        cspSource: origin,
        nonce: NONCE,
        promptGuard: readFileSync(path.join(root, 'dist', PROMPT_GUARD_SCRIPT), 'utf8'),
        scriptUri: `${origin}/dist/webview.js`,
        chatScriptUri: `${origin}/dist/webview-chat.js`,
        styleUri: `${origin}/dist/${CHAT_STYLESHEET}`,
        codiconsUri: `${origin}/dist/codicons/codicon.css`,
      }).replace(
        `<script nonce="${NONCE}"`,
        `<script nonce="${NONCE}" src="${origin}/fake-api.js"></script>\n    <script nonce="${NONCE}"`,
      );
      return send(response, 'text/html', html);
    }
    if (url.pathname === '/fake-api.js') return send(response, 'text/javascript', FAKE_API);
    const file = path.join(root, path.normalize(url.pathname));
    const type = file.endsWith('.css') ? 'text/css' : file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream';
    const body = (): void => {
      try {
        send(response, type, readFileSync(file));
      } catch {
        response.writeHead(404).end();
      }
    };
    if (url.pathname === '/dist/webview-chat.js') {
      chat.count++;
      if (!firstServed) chat.early = true;
      void chatHeld.then(body);
    } else if (url.pathname === '/dist/webview.js') {
      void firstHeld.then(() => {
        firstServed = true;
        body();
      });
    } else {
      if (url.pathname === '/dist/codicons/codicon.css') codiconRequests++;
      body();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    releaseFirst,
    releaseChat,
    close: () => server.close(),
    chatRequests: () => ({ ...chat }),
    codiconRequests: () => codiconRequests,
  };
}

/** What the host answers to `ready`: its facts, then the conversation's snapshot (with the host's copy of the draft). */
async function answerReady(page: Page, draft: string): Promise<void> {
  const messages: HostToWebviewMessage[] = [
    { type: 'host_info', info: { agentNames: ['Scripted'], selectedAgent: 'Scripted', workspaceTrusted: true } },
    { type: 'snapshot', seq: 0, state: initialState(), conversationId: 'c1', draft },
  ];
  await page.evaluate(
    (list) => {
      const post = Reflect.get(globalThis, 'postMessage') as (this: unknown, message: unknown, targetOrigin: string) => void;
      list.forEach((message) => post.call(globalThis, message, '*'));
    },
    JSON.parse(JSON.stringify(messages)) as unknown[],
  );
}

async function posted(page: Page): Promise<{ type: string; text?: string }[]> {
  return page.evaluate(() => Reflect.get(globalThis, '__posted') as { type: string; text?: string }[]);
}

async function until(what: string, test: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const home = mkdtempSync(path.join(tmpdir(), 'acp-e2e-boot-prompt-'));
  removeOnSuccess('e2e boot-prompt', home);
  mkdirSync(E2E_RESULTS, { recursive: true });
  const browser = await launchBrowser(home, { width: 420, height: 700 });
  try {
    for (const pressEnter of [false, true]) {
      const server = await serve();
      const page = await browser.newPage();
      try {
        // Not until `load`: the page's load waits for the chat's script, which is held back.
        await page.goto(server.url, { waitUntil: 'commit' });
        const prompt = page.locator('textarea[aria-label="Prompt"]');
        await prompt.waitFor({ state: 'visible', timeout: 20_000 });
        assert.equal(await page.evaluate(() => Reflect.get(globalThis, '__acpChat')), undefined, "the chat's script has not run");
        assert.deepEqual(await posted(page), [], 'nor the first fetched one (it would have said ready)');
        // With Enter, clicked into; without, typed with the focus nowhere (the guard puts the keys in the prompt).
        if (pressEnter) await prompt.click();
        else
          await page.evaluate(() =>
            (Reflect.get(Reflect.get(globalThis, 'document') as object, 'activeElement') as { blur(): void }).blur(),
          );
        await page.keyboard.type('typed before the chat', { delay: 10 });
        if (pressEnter) await page.keyboard.press('Enter');
        assert.equal(await prompt.inputValue(), 'typed before the chat', 'typed, and Enter is no newline');
        // The caret put back into the text: the chat takes the prompt over with the caret where the user left it.
        if (!pressEnter) for (let step = 0; step < ' the chat'.length; step++) await page.keyboard.press('ArrowLeft');
        server.releaseFirst();
        await until('the first script ran', async () => (await posted(page)).length > 0);
        assert.deepEqual(await posted(page), [{ type: 'ready' }], 'the page said ready before the chat loaded');
        assert.ok(server.chatRequests().early, "the chat's script was asked for by the HTML, before the first script ran");
        server.releaseChat();
        await until('the chat loaded', async () => (await page.evaluate(() => Reflect.get(globalThis, '__acpChat'))) !== undefined);
        await answerReady(page, pressEnter ? '' : 'older host draft');
        assert.equal(server.chatRequests().count, 1, "the chat's script was fetched once (the preload was used)");
        if (pressEnter) {
          await until('the prompt is sent', async () => (await posted(page)).some((message) => message.type === 'send_prompt'));
          const sent = (await posted(page)).find((message) => message.type === 'send_prompt');
          assert.equal(sent?.text, 'typed before the chat');
          assert.equal(await prompt.inputValue(), '', 'the prompt is empty once sent');
          check('Enter pressed before the chat loaded sends the prompt once the host has answered');
        } else {
          await until('the host hears the draft', async () =>
            (await posted(page)).some((message) => message.type === 'draft_changed' && message.text === 'typed before the chat'),
          );
          assert.equal(await prompt.inputValue(), 'typed before the chat', 'the typed draft beats the older host copy');
          assert.ok(
            await prompt.evaluate((element) => element === Reflect.get(Reflect.get(element, 'ownerDocument') as object, 'activeElement')),
            'the prompt kept the focus',
          );
          assert.deepEqual(
            await prompt.evaluate((element) => [Reflect.get(element, 'selectionStart'), Reflect.get(element, 'selectionEnd')]),
            ['typed before'.length, 'typed before'.length],
            'the caret stayed where the user left it',
          );
          await page.keyboard.press('End');
          await page.keyboard.type(' and after', { delay: 10 });
          assert.equal(await prompt.inputValue(), 'typed before the chat and after', 'typing goes on in the same prompt');
          // Every icon's glyph comes from one stylesheet the page adopts (webview/codicon-sheet.ts), under the page's
          // CSP; served `no-store` (as VS Code serves a webview's files `no-cache`), a link per icon would ask again.
          const glyph = await page.locator('vscode-button[aria-label="Send"] vscode-icon').evaluate((icon) => {
            const span = icon.shadowRoot?.querySelector('.codicon');
            const computed = Reflect.get(globalThis, 'getComputedStyle') as (
              element: object,
              pseudo: string,
            ) => { content: string; fontFamily: string };
            const before = span ? computed(span, '::before') : undefined;
            return { content: before?.content, font: before?.fontFamily, links: icon.shadowRoot?.querySelectorAll('link[href]').length };
          });
          assert.deepEqual(glyph, { content: '"\uec0f"', font: 'codicon', links: 0 }, 'the send icon draws its codicon (send: U+EC0F)');
          assert.equal(server.codiconRequests(), 1, 'codicon.css was fetched once, by the page, not once per icon');
          await page.screenshot({ path: path.join(E2E_RESULTS, 'e2e-boot-prompt.png') });
          check('what was typed before the chat loaded stays, keeps the focus, and the host hears it');
          check("the chat's script is preloaded from the HTML and fetched once");
        }
      } finally {
        await page.close();
        server.close();
      }
    }
  } finally {
    await browser.close();
  }
}

main().then(
  () => console.log('boot-prompt: passed'),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
