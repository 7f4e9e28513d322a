/**
 * The draft's attachments, as chips above the prompt: what is attached, a remove button each, and a warning on
 * any the current agent cannot take (the prompt would be refused with the same reason).
 */
import {
  attachmentKey,
  attachmentTitle,
  refusalReason,
  withAttachments,
  type Attachment,
  type PromptCapabilities,
} from '../../src/shared/attachments';
import { h, icon, iconButton } from '../dom';

export class AttachmentTray {
  readonly element = h('div', { className: 'attachment-tray', attrs: { role: 'list', 'aria-label': 'Attachments' } });
  private items: readonly Attachment[] = [];
  private currentCapabilities: PromptCapabilities = { image: false, audio: false, embeddedContext: false };
  private currentAgentName = 'The agent';

  constructor(
    initial: readonly Attachment[],
    private readonly onChange: (attachments: readonly Attachment[]) => void,
  ) {
    this.element.addEventListener('click', (event) => {
      const button = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-remove]') : null;
      if (!button) return;
      this.set(this.items.filter((item) => attachmentKey(item) !== button.dataset.remove));
    });
    this.items = initial;
    this.render();
  }

  get attachments(): readonly Attachment[] {
    return this.items;
  }

  /** What the current agent takes, for checking new attachments before they are read. */
  get capabilities(): PromptCapabilities {
    return this.currentCapabilities;
  }

  get agentName(): string {
    return this.currentAgentName;
  }

  add(incoming: readonly Attachment[]): void {
    this.set(withAttachments(this.items, incoming));
  }

  set(items: readonly Attachment[]): void {
    if (items === this.items) return;
    this.items = items;
    this.render();
    this.onChange(items);
  }

  /** What the agent takes changed (another agent, a restart): re-mark the chips. */
  setAgent(capabilities: PromptCapabilities, agentName: string): void {
    const same =
      agentName === this.currentAgentName &&
      capabilities.image === this.currentCapabilities.image &&
      capabilities.audio === this.currentCapabilities.audio;
    this.currentCapabilities = capabilities;
    this.currentAgentName = agentName;
    if (!same) this.render();
  }

  private render(): void {
    this.element.hidden = this.items.length === 0;
    this.element.replaceChildren(...this.items.map((item) => this.chip(item)));
  }

  private chip(item: Attachment): HTMLElement {
    const title = attachmentTitle(item);
    const refused = refusalReason(item, this.currentCapabilities, this.currentAgentName);
    const chip = h('div', {
      className: `attachment-chip${refused ? ' refused' : ''}`,
      attrs: { role: 'listitem', title: refused ?? (item.kind === 'file' ? readableUri(item.uri) : title) },
    });
    if (item.kind === 'image' && /^image\/[\w.+-]+$/.test(item.mimeType)) {
      chip.append(h('img', { className: 'attachment-thumbnail', attrs: { alt: '', src: `data:${item.mimeType};base64,${item.data}` } }));
    } else {
      chip.append(icon(refused ? 'warning' : item.kind === 'audio' ? 'unmute' : item.kind === 'file' && item.range ? 'selection' : 'file'));
    }
    chip.append(h('span', { className: 'attachment-label', text: title }));
    const remove = iconButton('close', `Remove ${title}`);
    remove.dataset.remove = attachmentKey(item);
    chip.append(remove);
    return chip;
  }
}

function readableUri(uri: string): string {
  try {
    return decodeURIComponent(uri.replace(/^file:\/\//, ''));
  } catch {
    return uri;
  }
}
