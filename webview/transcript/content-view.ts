/** Renders one content block (of a message or a tool call) that is not streaming markdown. */
import type { ContentBlock } from '../../src/shared/content';
import { h, icon } from '../dom';
import { classifyLink } from '../../src/shared/link-safety';
import { renderMarkdown } from '../../src/shared/markdown';
import { truncateForDisplay } from './display-text';

/** `compact`: an embedded resource shows as its link only (attachments in the user's own message). */
export function contentBlockView(block: ContentBlock, options: { readonly compact?: boolean } = {}): HTMLElement {
  switch (block.type) {
    case 'text': {
      const element = h('div', { className: 'markdown' });
      element.innerHTML = renderMarkdown(truncateForDisplay(block.text));
      return element;
    }
    case 'image': {
      const image = h('img', { className: 'content-image', attrs: { alt: block.uri ? `Image ${block.uri}` : 'Image' } });
      // Only data: URIs pass the CSP; the MIME type is checked so an agent cannot smuggle another scheme in.
      if (/^image\/[\w.+-]+$/.test(block.mimeType)) image.src = `data:${block.mimeType};base64,${block.data}`;
      return image;
    }
    case 'audio':
      return chip('unmute', `Audio (${block.mimeType})`);
    case 'resource_link':
      return h('div', { className: 'content-resource' }, linkTo(block.uri, block.title ?? block.name));
    case 'resource': {
      const container = h('div', { className: 'content-resource' }, linkTo(block.resource.uri, resourceLabel(block.resource.uri)));
      if (block.resource.text !== undefined && !options.compact)
        container.append(h('pre', { className: 'code', attrs: { tabindex: '0' }, text: truncateForDisplay(block.resource.text, 5000) }));
      return container;
    }
    case 'unknown':
      return chip('question', `Unsupported content (${block.originalType})`);
  }
}

/** A link to a URI: files open in the editor via the host, web links go to the browser, anything else is text. */
export function linkTo(uri: string, label: string, line?: number): HTMLElement {
  const target = classifyLink(uri);
  switch (target.type) {
    case 'external':
      return h('a', { className: 'link', text: label, attrs: { href: target.url, title: target.url } });
    case 'file': {
      const at = line ?? target.line;
      return h(
        'button',
        {
          className: 'link-button',
          attrs: {
            type: 'button',
            'data-action': 'open-location',
            'data-path': target.path,
            'data-line': at === undefined ? undefined : String(at),
            title: at === undefined ? target.path : `${target.path}:${at}`,
            'aria-label': `Open ${label}`,
          },
        },
        icon('file'),
        h('span', { text: label }),
      );
    }
    case 'blocked':
      return h('span', { text: label });
  }
}

/** `file:///src/a.ts#L3-5` -> `a.ts:3-5`: the file name, and the lines when the URI names a range. */
function resourceLabel(uri: string): string {
  const hash = uri.indexOf('#');
  const lines = hash === -1 ? null : /^L(\d+)(?:-L?(\d+))?$/.exec(uri.slice(hash + 1));
  const name = basename(hash === -1 ? uri : uri.slice(0, hash));
  if (!lines) return name;
  return lines[2] && lines[2] !== lines[1] ? `${name}:${lines[1]}-${lines[2]}` : `${name}:${lines[1]}`;
}

export function basename(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  const slash = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return slash === -1 ? trimmed : trimmed.slice(slash + 1);
}

function chip(iconName: string, label: string): HTMLElement {
  return h('div', { className: 'content-chip' }, icon(iconName), h('span', { text: label }));
}
