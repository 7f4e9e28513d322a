/** What the transcript area says before there is a conversation: how to get an agent, or that it is ready. */
import { downloadedText, showsInstall, type InstallProgress } from '../../src/shared/install-status';
import type { TranscriptState } from '../../src/shared/model';
import type { HostInfo } from '../../src/shared/webview-protocol';
import { visibleText } from '../../src/shared/visible-text';
import { UNTRUSTED_WORKSPACE } from '../../src/shared/wording';
import { h, icon, textButton } from '../dom';

export class EmptyState {
  readonly element = h('div', { className: 'empty-state' });
  /** Undefined until the first update, which must always run: the element starts out shown. */
  private lastSignature: string | undefined;

  update(state: TranscriptState | undefined, host: HostInfo | undefined, transcriptEmpty: boolean): void {
    const content = describe(state, host, transcriptEmpty);
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
      content.progress ? progressBar(content.progress) : undefined,
    ];
    // Every state that blocks the chat offers the action that unblocks it.
    for (const way of content.ways ?? []) children.push(textButton(way.label, { icon: way.icon, dataset: { action: way.action } }));
    this.element.replaceChildren(...children.filter((child): child is HTMLElement => child !== undefined));
  }
}

interface Description {
  readonly icon: string;
  readonly title: string;
  readonly text?: string;
  readonly ways?: readonly {
    readonly label: string;
    readonly icon: string;
    readonly action: 'select-agent' | 'add-agent' | 'configure-agents' | 'manage-trust' | 'sign-in' | 'cancel-install';
  }[];
  /** A bar under the text: determinate when the size is known (a download), else moving (a start). */
  readonly progress?: { readonly label: string; readonly fraction?: number };
}

function progressBar(progress: NonNullable<Description['progress']>): HTMLElement {
  const bar = document.createElement('vscode-progress-bar');
  bar.className = 'empty-progress';
  bar.setAttribute('aria-label', visibleText(progress.label));
  if (progress.fraction === undefined) bar.indeterminate = true;
  else {
    bar.max = 100;
    bar.value = Math.round(progress.fraction * 100);
  }
  return bar;
}

function installing(install: InstallProgress): Description {
  const fraction = install.totalBytes ? Math.min(1, install.receivedBytes / install.totalBytes) : undefined;
  return {
    icon: 'cloud-download',
    title: `Installing ${install.agentName} ${install.version}…`,
    text: `${downloadedText(install) ?? 'Nothing'} downloaded from the ACP registry so far. The chat starts the agent when it is installed.`,
    progress: { label: `Installing ${install.agentName}`, ...(fraction === undefined ? {} : { fraction }) },
    ways: [{ label: 'Cancel', icon: 'close', action: 'cancel-install' }],
  };
}

const SELECT_AGENT = { label: 'Select Agent', icon: 'hubot', action: 'select-agent' } as const;

function describe(state: TranscriptState | undefined, host: HostInfo | undefined, transcriptEmpty: boolean): Description {
  const agent = state?.agent;
  if (host && !host.workspaceTrusted) {
    return {
      icon: 'workspace-untrusted',
      title: UNTRUSTED_WORKSPACE.title,
      text: UNTRUSTED_WORKSPACE.detail,
      ways: [{ label: 'Trust this workspace…', icon: 'shield', action: 'manage-trust' }],
    };
  }
  if (showsInstall(agent ?? { phase: 'none' }, host?.install, transcriptEmpty)) return installing(host.install);
  if (host && host.agentNames.length === 0 && (!agent || agent.phase === 'none')) {
    return {
      icon: 'hubot',
      title: 'No agent configured',
      text: 'ACP (the Agent Client Protocol) lets this chat work with any coding agent that speaks it: Claude Code, Codex, Gemini CLI, Goose and more.',
      ways: [
        { label: 'Add an agent…', icon: 'cloud-download', action: 'add-agent' },
        { label: 'Configure manually…', icon: 'settings-gear', action: 'configure-agents' },
      ],
    };
  }
  if (!agent || agent.phase === 'none')
    return { icon: 'hubot', title: 'No agent running', text: 'Choose an agent to start a session.', ways: [SELECT_AGENT] };
  if (agent.phase === 'starting')
    return {
      icon: 'loading codicon-modifier-spin',
      title: `Starting ${agent.agentName}…`,
      // The first start of an npx or uvx agent downloads its package first, which can take a while.
      text: 'Waiting for the agent to answer and open a session.',
      progress: { label: `Starting ${agent.agentName}` },
    };
  if (agent.phase === 'needs_auth')
    return {
      icon: 'account',
      title: 'Sign-in needed',
      // Method names are the agent's words: shown with bidi and invisible characters made visible.
      text: `${agent.agentName} asks you to sign in before it opens a session${agent.methods.length ? `: ${agent.methods.map((name) => visibleText(name)).join(', ')}` : ''}.`,
      ways: [{ label: 'Sign in…', icon: 'sign-in', action: 'sign-in' }],
    };
  if (agent.phase === 'stopped')
    return { icon: 'comment-discussion', title: `Ask ${agent.agentName}`, text: `Sending a prompt starts ${agent.agentName} again.` };
  if (agent.phase === 'exited') return { icon: 'debug-disconnect', title: `${agent.agentName} has exited`, ways: [SELECT_AGENT] };
  return {
    icon: 'comment-discussion',
    title: `Ask ${agent.agentName}`,
    text: 'Describe a task or ask a question. Enter sends, Shift+Enter adds a line.',
  };
}
