/**
 * The workbench's palette, pickers, menus and dialogs keep the focus the user gave them: a focus this page takes
 * while one is open closes it under the user (they close when they lose the focus).
 */

/**
 * The user is in the workbench's palette, a picker, a menu or a dialog. Readable only where the workbench's page is
 * of this page's origin (VS Code in the browser, code-server); elsewhere it answers no, and the host's word goes
 * (VS Code desktop answers its commands quickly enough for a person not to be in a picker yet).
 */
export function pickerIsOpen(): boolean {
  try {
    const active = window.top?.document.activeElement;
    return !!active?.closest('.quick-input-widget, .context-view, .monaco-dialog-box, [role="dialog"], [role="menu"]');
  } catch {
    return false;
  }
}

/**
 * Makes this page's `window.focus()` a no-op while a picker is open. VS Code's webview host calls it late: a view's
 * focus (its "Focus on … View" command, a click on its icon) queues a `focus` message for the webview's outer frame,
 * having checked that no input has the focus when it queued it, and the outer frame (pre/index.html) answers with
 * `activeFrame.contentWindow.focus()` when the message lands. On a busy 2-core machine that is 0.4–0.6 s later, after
 * the user has opened the palette: a focus trace of every frame showed that call closing it (e2e focus's "the focus
 * command" step, CI). Installed by the page's inline script, before anything can call it.
 */
export function keepPickersOnLateFocus(): void {
  const focusWindow = window.focus.bind(window);
  window.focus = (): void => {
    if (!pickerIsOpen()) focusWindow();
  };
}
