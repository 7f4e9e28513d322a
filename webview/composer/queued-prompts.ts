/**
 * Prompts waiting for the agent, above the composer: each says it is queued and why, with Edit (back into the
 * composer, out of the queue) and Remove, and, while a turn runs on an agent that allows it, Steer (into the running
 * turn now). They are sent in order, by the host, when the agent can take them.
 */
import type { QueuedPrompt, TranscriptState } from '../../src/shared/model';
import { h, icon, iconButton } from '../dom';
import { visibleText } from '../../src/shared/visible-text';

const NO_QUEUE: readonly QueuedPrompt[] = [];

export class QueuedPrompts {
  readonly element = h('div', { className: 'queued-prompts', attrs: { role: 'list', 'aria-label': 'Queued prompts' } });
  private shown: readonly QueuedPrompt[] | undefined;
  private shownWhy: string | undefined;
  private shownSteerable = false;

  constructor() {
    this.element.hidden = true;
  }

  update(state: TranscriptState | undefined): void {
    // A state without a queue compares equal to the last one without: a new empty list each time redrew (and restyled)
    // this every frame of a stream.
    const queued = state?.queued ?? NO_QUEUE;
    const why = state ? waitingFor(state) : '';
    const steerable = state?.steering === true && state.turn.phase === 'running';
    if (queued === this.shown && why === this.shownWhy && steerable === this.shownSteerable) return;
    this.shown = queued;
    this.shownWhy = why;
    this.shownSteerable = steerable;
    this.element.hidden = queued.length === 0;
    this.element.replaceChildren(
      ...queued.map((prompt, index) =>
        h(
          'div',
          { className: 'queued-prompt', attrs: { role: 'listitem', 'data-queued-id': prompt.id } },
          icon('clock'),
          h('span', { className: 'queued-prompt-text', text: oneLine(prompt), attrs: { title: visibleText(prompt.text, 'multiline') } }),
          h('span', { className: 'queued-prompt-why', text: index === 0 ? why : 'queued' }),
          ...(steerable
            ? [
                iconButton('debug-step-into', 'Steer the running turn with this prompt now', {
                  action: 'steer-queued',
                  queuedId: prompt.id,
                }),
              ]
            : []),
          iconButton('edit', 'Edit queued prompt', { action: 'edit-queued', queuedId: prompt.id }),
          iconButton('close', 'Remove queued prompt', { action: 'remove-queued', queuedId: prompt.id }),
        ),
      ),
    );
  }
}

/** What the first queued prompt waits for, in a few words. */
function waitingFor(state: TranscriptState): string {
  if (state.agent.phase === 'starting') return `queued until ${visibleText(state.agent.agentName)} is ready`;
  if (state.turn.phase !== 'idle') return 'queued for the next turn';
  if (state.agent.phase === 'needs_auth') return 'queued until you sign in';
  return 'queued';
}

function oneLine(prompt: QueuedPrompt): string {
  const text = visibleText(prompt.text.replace(/\s+/g, ' ').trim());
  if (text) return text;
  return `${prompt.attachments.length} attachment${prompt.attachments.length === 1 ? '' : 's'}`;
}
