/**
 * The page's inline script (dist/prompt-guard.js, which src/views/chat-html.ts puts in the HTML under the nonce, right
 * after the prompt): it has run before the first frame, so the prompt behaves as the chat's from the moment it is
 * painted. The page's first fetched script (webview/main.ts) comes through the workbench, up to 470 ms after the
 * prompt was on screen (traced after Reload Window), and until it ran an Enter was a newline and keys typed with the
 * focus nowhere were lost. It posts nothing, so when the page says `ready` is as before.
 *
 * It also keeps the page's frame from taking the focus while the workbench's palette or a picker is open
 * (webview/picker-focus.ts).
 *
 * Until the chat adopts the prompt (it removes `data-boot-prompt`):
 * - Enter (without Shift, not composing) is no newline: the prompt is marked, and the chat sends the draft once it can.
 * - Typing goes to the prompt when the page itself has the focus (VS Code focuses the frame of a view it opens) or a
 *   character is typed with the focus nowhere, as in the chat (webview/app.ts).
 */
import { BOOT_PROMPT_SELECTOR, SEND_REQUESTED_ATTRIBUTE } from './boot-handoff';
import { keepPickersOnLateFocus } from './picker-focus';

// First, so that no focus VS Code passes on later closes a palette the user opened meanwhile.
keepPickersOnLateFocus();

const prompt = document.querySelector<HTMLTextAreaElement>(BOOT_PROMPT_SELECTOR);
const stillBoot = (): boolean => prompt?.hasAttribute('data-boot-prompt') ?? false;

prompt?.addEventListener('keydown', (event) => {
  if (!stillBoot() || event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  prompt.setAttribute(SEND_REQUESTED_ATTRIBUTE, '');
});

const focusPrompt = (): void => {
  const nowhere = document.activeElement === document.body || document.activeElement === null;
  if (stillBoot() && nowhere) prompt?.focus();
};
if (document.hasFocus()) focusPrompt();
window.addEventListener('focus', focusPrompt);
document.addEventListener('keydown', (event) => {
  if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) focusPrompt();
});
