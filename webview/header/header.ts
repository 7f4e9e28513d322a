/**
 * The header, one line: agent name and status (a working indicator while a turn runs), session title, usage meter.
 * It also builds the session's pickers (config options when the agent has them, else modes: see
 * session-pickers.ts), which the app places by the composer. Parts are rebuilt only when their slice of state changed.
 */
import { installStatusText, showsInstall } from '../../src/shared/install-status';
import type { AgentStatus, ConfigOption, TranscriptState } from '../../src/shared/model';
import { sessionPickers, type SessionPicker } from '../../src/shared/session-pickers';
import { visibleText } from '../../src/shared/visible-text';
import { inTurnState, lifecycleOf } from '../../src/shared/lifecycle';
import type { HostInfo, WebviewToHostMessage } from '../../src/shared/webview-protocol';
import { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import { h, icon } from '../dom';
import { groupThousands } from '../../src/shared/group-thousands';
import { usageLabel } from '../labels';
import { agentNameLabel, installingAgentLabel } from './agent-name';

type Post = (message: WebviewToHostMessage) => void;

export class Header {
  readonly element = h('header', { className: 'chat-header' });
  private readonly statusDot = h('span', { className: 'status-dot', attrs: { 'aria-hidden': 'true' } });
  /** The webview's heading: a screen reader's list of headings starts with the agent the chat is with. */
  private readonly agentName = h('h1', { className: 'agent-name' });
  private readonly agentStatus = h('span', { className: 'agent-status', attrs: { role: 'status' } });
  private readonly working = icon('loading', 'working codicon-modifier-spin');
  private readonly usage = h('span', { className: 'usage', attrs: { role: 'meter', 'aria-valuemin': '0' } });
  private readonly usageFill = h('span', { className: 'usage-fill' });
  private readonly usageText = h('span', { className: 'usage-text' });
  private readonly title = h('div', { className: 'session-title' });
  /** Shown by the composer, not in the header: see ChatApp. */
  readonly pickers = h('div', { className: 'pickers', attrs: { role: 'group', 'aria-label': 'Session options' } });
  private last: {
    agent?: AgentStatus;
    turn?: TranscriptState['turn'];
    host?: HostInfo;
    empty?: boolean;
    title?: string;
    usage?: TranscriptState['usage'];
    modes?: TranscriptState['modes'];
    config?: readonly ConfigOption[];
  } = {};

  constructor(private readonly post: Post) {
    this.usage.append(h('span', { className: 'usage-meter', attrs: { 'aria-hidden': 'true' } }, this.usageFill), this.usageText);
    this.element.append(
      h(
        'div',
        { className: 'header-row' },
        this.statusDot,
        this.agentName,
        this.working,
        this.agentStatus,
        this.title,
        h('span', { className: 'spacer' }),
        this.usage,
      ),
    );
    this.working.hidden = true;
    // vscode-single-select's change event does not bubble: listen in the capture phase, which sees it anyway.
    this.pickers.addEventListener('change', (event) => this.onPickerChange(event), { capture: true });
    this.usage.hidden = true;
    this.title.hidden = true;
    this.pickers.hidden = true;
  }

  update(state: TranscriptState | undefined, host: HostInfo | undefined): void {
    const agent = state?.agent ?? { phase: 'none' };
    const turn = state?.turn;
    const empty = (state?.entryCount ?? 0) === 0;
    if (agent !== this.last.agent || host !== this.last.host || turn !== this.last.turn || empty !== this.last.empty)
      this.renderAgent(agent, turn, host, empty);
    if (state?.title !== this.last.title) {
      this.title.textContent = visibleText(state?.title ?? '');
      this.title.title = visibleText(state?.title ?? '', 'multiline');
      this.title.hidden = !state?.title;
    }
    if (state?.usage !== this.last.usage) this.renderUsage(state?.usage);
    if (state?.modes !== this.last.modes || state?.configOptions !== this.last.config) this.renderPickers(state);
    this.last = { agent, turn, host, empty, title: state?.title, usage: state?.usage, modes: state?.modes, config: state?.configOptions };
  }

  private renderAgent(agent: AgentStatus, turn: TranscriptState['turn'] | undefined, host: HostInfo | undefined, empty: boolean): void {
    const install = host?.install;
    if (showsInstall(agent, install, empty)) {
      // The agent this chat is about to start is still being fetched: its name, and how far the download is.
      const label = installingAgentLabel(install);
      this.agentName.textContent = label.text;
      this.agentName.title = label.title;
      this.statusDot.className = 'status-dot status-starting';
      this.statusDot.hidden = true;
      this.working.hidden = false;
      this.agentStatus.textContent = installStatusText(install);
      this.agentStatus.title = label.statusTitle;
      return;
    }
    const label = agentNameLabel(agent, host?.selectedAgent);
    this.agentName.textContent = label.text;
    this.agentName.title = label.title;
    const busy = turn !== undefined && inTurnState(lifecycleOf({ agent, turn }));
    this.statusDot.className = `status-dot status-${agent.phase}`;
    this.statusDot.hidden = busy;
    this.working.hidden = !busy;
    this.agentStatus.textContent = busy ? turnStatusText(turn) : statusText(agent);
    this.agentStatus.title =
      agent.phase === 'ready' && agent.protocolVersion
        ? `Speaks ACP v${agent.protocolVersion}`
        : agent.phase === 'needs_auth'
          ? `Sign in with: ${agent.methods.map((name) => visibleText(name)).join(', ')}`
          : '';
  }

  private renderUsage(usage: TranscriptState['usage']): void {
    this.usage.hidden = !usage;
    if (!usage) return;
    const fraction = usage.size > 0 ? Math.min(1, usage.used / usage.size) : 0;
    this.usageFill.style.width = `${Math.round(fraction * 100)}%`;
    this.usageFill.classList.toggle('high', fraction >= 0.9);
    this.usageText.textContent = usageLabel(usage);
    const description = `Context: ${groupThousands(usage.used)} of ${groupThousands(usage.size)} tokens${usage.cost ? `, cost ${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : ''}`;
    this.usage.title = description;
    this.usage.setAttribute('aria-label', description);
    this.usage.setAttribute('aria-valuemax', String(usage.size));
    this.usage.setAttribute('aria-valuenow', String(Math.min(usage.used, usage.size)));
  }

  private renderPickers(state: TranscriptState | undefined): void {
    const children = state ? sessionPickers(state).map(pickerElement) : [];
    this.pickers.replaceChildren(...children);
    this.pickers.hidden = children.length === 0;
  }

  private onPickerChange(event: Event): void {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    const configId = target.dataset.configId;
    const value =
      target instanceof VscodeCheckbox ? target.checked : 'value' in target && typeof target.value === 'string' ? target.value : undefined;
    if (value === undefined) return;
    if (target.dataset.picker === 'mode' && typeof value === 'string') this.post({ type: 'set_mode', modeId: value });
    else if (configId !== undefined) this.post({ type: 'set_config_option', configId, value });
  }
}

/** While a turn runs the agent is never just "Ready": the status says what the turn is doing. */
function turnStatusText(turn: TranscriptState['turn']): string {
  return turn.phase === 'cancelling' ? 'Stopping…' : 'Working…';
}

function statusText(agent: AgentStatus): string {
  switch (agent.phase) {
    case 'none':
      return '';
    case 'starting':
      return 'Starting…';
    case 'ready':
      return 'Ready';
    case 'needs_auth':
      return 'Sign-in needed';
    case 'stopped':
      return 'Not running';
    case 'exited':
      return agent.signal ? `Exited (${agent.signal})` : agent.exitCode === null ? 'Exited' : `Exited (code ${agent.exitCode})`;
  }
}

function pickerElement(picker: SessionPicker): HTMLElement {
  if (picker.type === 'boolean') {
    // Its slotted text is the label of the checkbox inside, so the name is both shown and announced.
    const checkbox = h('vscode-checkbox', { text: picker.name, attrs: { 'data-config-id': picker.id, title: picker.description } });
    checkbox.checked = picker.current === true;
    return checkbox;
  }
  return select(picker);
}

/** A dropdown; its data attributes say what a change sets (read by onPickerChange, on the select itself). */
function select(picker: SessionPicker): HTMLElement {
  const element = document.createElement('vscode-single-select');
  element.label = visibleText(picker.name);
  element.title = visibleText(picker.description ?? picker.name, 'multiline');
  element.setAttribute('aria-label', visibleText(picker.name));
  element.dataset.picker = picker.source === 'modes' ? 'mode' : 'config';
  if (picker.source === 'config') element.dataset.configId = picker.id;
  for (const choice of picker.choices) {
    const option = document.createElement('vscode-option');
    option.value = choice.value;
    option.textContent = visibleText(choice.name);
    if (choice.description) option.description = visibleText(choice.description, 'multiline');
    if (choice.value === picker.current) option.selected = true;
    element.append(option);
  }
  // The name shows beside the value: "Ask" alone does not say it is a mode.
  return h('label', { className: 'picker' }, h('span', { className: 'picker-label', text: picker.name }), element);
}
