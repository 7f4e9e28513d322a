/** What the transcript area says before there is a conversation: how to get an agent, or that it is ready. */
import type { TranscriptState } from '../src/shared/model';
import type { HostInfo } from '../src/shared/webview-protocol';
import { h, icon, textButton } from './dom';

export class EmptyState {
  readonly element = h('div', { className: 'empty-state' });
  /** Undefined until the first update, which must always run: the element starts out shown. */
  private lastSignature: string | undefined;

  update(state: TranscriptState | undefined, host: HostInfo | undefined, transcriptEmpty: boolean): void {
    const content = describe(state, host);
    const signature = transcriptEmpty ? JSON.stringify(content) : '';
    if (signature === this.lastSignature) return;
    this.lastSignature = signature;
    this.element.hidden = !transcriptEmpty;
    if (!transcriptEmpty) {
      this.element.replaceChildren();
      return;
    }
    const children: (HTMLElement | undefined)[] = [
      h('div', { className: 'empty-icon' }, icon(content.icon)),
      h('h2', { className: 'empty-title', text: content.title }),
      content.text ? h('p', { className: 'empty-text', text: content.text }) : undefined,
    ];
    if (content.setting) children.push(h('p', { className: 'empty-text' }, 'Configure agents in the ', h('code', { text: 'acpClient.agents' }), ' setting.'));
    if (content.selectAgent) children.push(textButton('Select Agent', { icon: 'hubot', dataset: { action: 'select-agent' } }));
    this.element.replaceChildren(...children.filter((child): child is HTMLElement => child !== undefined));
  }
}

interface Description {
  readonly icon: string;
  readonly title: string;
  readonly text?: string;
  readonly setting?: boolean;
  readonly selectAgent?: boolean;
}

function describe(state: TranscriptState | undefined, host: HostInfo | undefined): Description {
  const agent = state?.agent;
  if (host && host.agentNames.length === 0 && (!agent || agent.phase === 'none')) {
    return {
      icon: 'hubot',
      title: 'No agent configured',
      text: 'ACP Client chats with any Agent Client Protocol agent (Claude Code, Codex, Gemini CLI, Goose…) running on this machine.',
      setting: true,
      selectAgent: true,
    };
  }
  if (!agent || agent.phase === 'none') return { icon: 'hubot', title: 'No agent running', text: 'Choose an agent to start a session.', selectAgent: true };
  if (agent.phase === 'starting') return { icon: 'loading codicon-modifier-spin', title: `Starting ${agent.agentName}…` };
  if (agent.phase === 'exited') return { icon: 'debug-disconnect', title: `${agent.agentName} has exited`, selectAgent: true };
  return { icon: 'comment-discussion', title: `Ask ${agent.agentName}`, text: 'Describe a task or ask a question. Enter sends, Shift+Enter adds a line.' };
}
