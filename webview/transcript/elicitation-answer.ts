/**
 * A click on an elicitation's button, turned into the message for the host: Accept checks the form first and
 * shows the errors inline instead of posting (the host checks again). The buttons are disabled once posted, so
 * a double click cannot answer twice; the host's answer (the entry's outcome) then replaces the form.
 */
import type { ElicitationView } from '../../src/shared/elicitation-model';
import type { ElicitationValue } from '../../src/shared/elicitation-validate';
import type { TranscriptState } from '../../src/shared/model';
import { entryByKey } from '../../src/shared/selectors';
import type { WebviewToHostMessage } from '../../src/shared/webview-protocol';
import { formValues, showFormErrors } from './elicitation-view';

export function answerElicitation(
  control: HTMLElement,
  state: TranscriptState | undefined,
  entryKey: string | undefined,
): WebviewToHostMessage | undefined {
  const { requestId, answer } = control.dataset;
  if (!requestId || (answer !== 'accept' && answer !== 'decline' && answer !== 'cancel')) return undefined;
  const view = state && entryKey ? viewOf(state, entryKey) : undefined;
  if (!view || view.requestId !== requestId || view.outcome !== undefined) return undefined;
  const form = control.closest('form');
  let values: Record<string, ElicitationValue> | undefined;
  if (answer === 'accept' && view.request.mode === 'form' && form) {
    if (!showFormErrors(form, view.request.form)) return undefined;
    values = formValues(form);
  }
  control.parentElement?.querySelectorAll('vscode-button').forEach((button) => button.setAttribute('disabled', ''));
  return { type: 'elicitation_answer', requestId, action: answer, ...(values ? { values } : {}) };
}

function viewOf(state: TranscriptState, key: string): ElicitationView | undefined {
  const entry = entryByKey(state, key);
  return entry?.kind === 'elicitation' || entry?.kind === 'tool_call' ? entry.elicitation : undefined;
}
