/** The agent's latest transient notice, above the transcript until dismissed or replaced. */
import type { TranscriptState } from '../src/shared/model';
import { h, icon, iconButton } from './dom';
import { severityIcon } from './labels';

export class Banner {
  readonly element = h('div', { className: 'banner', attrs: { role: 'status' } });
  private shown: TranscriptState['banner'];
  private dismissedId: number | undefined;

  constructor() {
    this.element.hidden = true;
    this.element.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('[data-action="dismiss-banner"]')) {
        this.dismissedId = this.shown?.id;
        this.element.hidden = true;
      }
    });
  }

  update(banner: TranscriptState['banner']): void {
    if (banner === this.shown) return;
    this.shown = banner;
    if (!banner || banner.id === this.dismissedId) {
      this.element.hidden = true;
      return;
    }
    this.element.className = `banner severity-${banner.severity}`;
    const text = h('span', { className: 'banner-text' }, h('span', { className: 'banner-title', text: banner.title }));
    // The notice's optional description: plain text under its title, as the schema asks (never markup).
    if (banner.detail) text.append(h('span', { className: 'banner-detail', text: banner.detail }));
    this.element.replaceChildren(icon(severityIcon(banner.severity)), text, iconButton('close', 'Dismiss', { action: 'dismiss-banner' }));
    this.element.hidden = false;
  }
}
