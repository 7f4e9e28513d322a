/**
 * A turn's change set: "N files changed +A −D", one row per file (opens its diff), Keep/Undo per file and for the
 * whole turn, and Review (VS Code's multi-file diff editor). A file already kept or undone shows so, its buttons gone.
 */
import type { ChangedFileView, Entry } from '../../src/shared/model';
import { h, icon, iconButton, textButton } from '../dom';
import { basename } from '../transcript/content-view';
import type { EntryView } from '../transcript/entry-view';

const CHANGE_LABEL: Record<ChangedFileView['change'], string> = {
  created: 'created',
  modified: 'modified',
  deleted: 'deleted',
  renamed: 'renamed',
};
const CHANGE_ICON: Record<ChangedFileView['change'], string> = {
  created: 'diff-added',
  modified: 'diff-modified',
  deleted: 'diff-removed',
  renamed: 'diff-renamed',
};

export class ChangeSetView implements EntryView {
  readonly element = h('div', { className: 'entry changes' });

  render(entry: Entry): void {
    if (entry.kind !== 'changes') return;
    const added = entry.files.reduce((sum, f) => sum + (f.added ?? 0), 0);
    const removed = entry.files.reduce((sum, f) => sum + (f.removed ?? 0), 0);
    const pending = entry.files.some((f) => f.review === 'pending');
    const count = entry.files.length;
    const title =
      entry.origin === 'restore' ? `Restored ${count} file${count === 1 ? '' : 's'}` : `${count} file${count === 1 ? '' : 's'} changed`;
    const dataset = { turnId: entry.turnId };
    const header = h(
      'div',
      { className: 'changes-header' },
      icon(entry.origin === 'restore' ? 'history' : 'files'),
      h('span', { className: 'changes-title', text: title }),
      h('span', { className: 'diff-stat added', text: `+${added}` }),
      h('span', { className: 'diff-stat removed', text: `−${removed}` }),
      h('span', { className: 'spacer' }),
      textButton('Review', { secondary: true, icon: 'diff-multiple', dataset: { action: 'review-changes', ...dataset } }),
    );
    if (pending)
      header.append(
        textButton('Keep', { secondary: true, icon: 'check', dataset: { action: 'keep-changes', ...dataset } }),
        textButton('Undo', { secondary: true, icon: 'discard', dataset: { action: 'undo-changes', ...dataset } }),
      );
    const list = h('ul', { className: 'changes-files', attrs: { 'aria-label': `${title}, +${added} −${removed}` } });
    for (const file of entry.files) list.append(fileRow(file, entry.turnId));
    const notes = (entry.notes ?? []).map((note) => h('div', { className: 'changes-note turn-note', text: note }));
    this.element.replaceChildren(header, ...notes, list);
  }
}

function fileRow(file: ChangedFileView, turnId: string): HTMLElement {
  const name = basename(file.path);
  const what = file.renamedFrom !== undefined ? `renamed from ${basename(file.renamedFrom)}` : CHANGE_LABEL[file.change];
  const row = h(
    'div',
    { className: `changes-file review-${file.review}` },
    h(
      'button',
      {
        className: 'link-button',
        attrs: {
          type: 'button',
          'data-action': 'open-change',
          'data-turn-id': turnId,
          'data-path': file.path,
          'aria-label': `Open diff of ${name}, ${what}`,
          title: file.path,
        },
      },
      icon(CHANGE_ICON[file.change]),
      h('span', { text: name }),
    ),
    h('span', { className: 'diff-operation', text: what }),
  );
  if (file.added !== undefined)
    row.append(
      h('span', { className: 'diff-stat added', text: `+${file.added}` }),
      h('span', { className: 'diff-stat removed', text: `−${file.removed ?? 0}` }),
    );
  row.append(h('span', { className: 'spacer' }));
  if (file.review === 'pending') {
    row.append(
      iconButton('check', `Keep ${name}`, { action: 'keep-changes', turnId, path: file.path }),
      iconButton('discard', `Undo ${name}`, { action: 'undo-changes', turnId, path: file.path }),
    );
  } else {
    row.append(h('span', { className: 'diff-operation', text: file.review === 'kept' ? 'kept' : 'undone' }));
  }
  return h('li', {}, row, file.note === undefined ? undefined : h('div', { className: 'changes-note', text: file.note }));
}
