/**
 * The agent's latest transient notice, above the transcript until dismissed or replaced. It takes one line; a
 * toggle shows its whole description. Web addresses in the description are links, under the message link rules.
 */
import type { TranscriptState } from '../../src/shared/model';
import { visibleText } from '../../src/shared/visible-text';
import { h, icon, iconButton } from '../dom';
import { severityIcon } from '../labels';
import { splitLinks } from '../markdown/text-links';

type Shown = { readonly banner: NonNullable<TranscriptState['banner']>; readonly key: string };

export class Banner {
  readonly element = h('div', { className: 'banner', attrs: { role: 'status' } });
  private shown: Shown | undefined;
  private expanded = false;

  /** `dismiss` records the dismissal (the app keeps it in the webview's saved state). */
  constructor(private readonly dismiss: (key: string) => void) {
    this.element.hidden = true;
    this.element.addEventListener('click', (event) => {
      const action = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]')?.dataset.action : undefined;
      if (action === 'dismiss-banner' && this.shown) {
        this.dismiss(this.shown.key);
        this.element.hidden = true;
      } else if (action === 'toggle-banner' && this.shown) {
        this.expanded = !this.expanded;
        this.draw(this.shown.banner);
      }
    });
  }

  update(banner: TranscriptState['banner'], key: string, dismissed: readonly string[]): void {
    if (this.shown ? banner === this.shown.banner && key === this.shown.key : banner === undefined) return;
    this.shown = banner ? { banner, key } : undefined;
    this.expanded = false;
    if (!banner || dismissed.includes(key)) {
      this.element.hidden = true;
      return;
    }
    this.draw(banner);
    this.element.hidden = false;
  }

  private draw(banner: NonNullable<TranscriptState['banner']>): void {
    this.element.className = `banner severity-${banner.severity}${this.expanded ? ' expanded' : ''}`;
    const text = h('span', { className: 'banner-text' }, h('span', { className: 'banner-title', text: banner.title }));
    // The notice's optional description: plain text, as the schema asks (never markup); only its addresses are links.
    if (banner.detail) text.append(' ', h('span', { className: 'banner-detail' }, ...detailNodes(visibleText(banner.detail, 'multiline'))));
    const toggle = banner.detail
      ? iconButton(this.expanded ? 'chevron-up' : 'chevron-down', this.expanded ? 'Show less' : 'Show all', { action: 'toggle-banner' })
      : undefined;
    if (toggle) toggle.setAttribute('aria-expanded', String(this.expanded));
    this.element.replaceChildren(
      icon(severityIcon(banner.severity)),
      text,
      ...(toggle ? [toggle] : []),
      iconButton('close', 'Dismiss', { action: 'dismiss-banner' }),
    );
  }
}

function detailNodes(detail: string): (Node | string)[] {
  return splitLinks(detail).map((segment) =>
    segment.type === 'text' ? segment.text : h('a', { text: segment.url, attrs: { href: segment.url, title: segment.url } }),
  );
}
