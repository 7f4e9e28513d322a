/** A tool call's `diff` content as a unified diff per file, with a button to open VS Code's diff editor. */
import type { DiffFile, ToolCallContent } from '../../src/shared/content';
import { h, icon, iconButton } from '../dom';
import { classifyPatchLine, diffLines, hunkHeader, splitLines, type LineDiff } from './line-diff';
import { basename } from '../transcript/content-view';

/** Lines shown inline per file; the whole change is one click away in the diff editor. */
const MAX_LINES = 200;

// Keyed by the file object: the reducer keeps unchanged content objects, so each diff is computed once.
const diffCache = new WeakMap<DiffFile, LineDiff>();

function diffOf(file: DiffFile, newText: string): LineDiff {
  let diff = diffCache.get(file);
  if (!diff) {
    diff = diffLines(file.oldText, newText);
    diffCache.set(file, diff);
  }
  return diff;
}

export function diffView(content: Extract<ToolCallContent, { type: 'diff' }>, toolCallId: string, contentIndex: number): HTMLElement {
  const container = h('div', { className: 'diff' });
  content.files.forEach((file, fileIndex) => {
    const header = h(
      'div',
      { className: 'diff-header' },
      icon('diff'),
      h('span', { className: 'diff-path', text: basename(file.path), attrs: { title: file.path } }),
    );
    const lines = h('div', { className: 'diff-lines', attrs: { role: 'group', tabindex: '0', 'aria-label': `Changes to ${file.path}` } });
    if (file.newText !== undefined) {
      const diff = diffOf(file, file.newText);
      header.append(
        h('span', { className: 'diff-stat added', text: `+${diff.added}` }),
        h('span', { className: 'diff-stat removed', text: `−${diff.removed}` }),
      );
      appendHunks(lines, diff);
    } else if (file.operation) {
      header.append(h('span', { className: 'diff-operation', text: file.operation }));
    }
    header.append(
      h('span', { className: 'spacer' }),
      iconButton('go-to-file', `Open diff of ${basename(file.path)}`, {
        action: 'open-diff',
        toolCallId,
        contentIndex: String(contentIndex),
        fileIndex: String(fileIndex),
      }),
    );
    container.append(header);
    if (lines.childElementCount > 0) container.append(lines);
  });
  if (content.patch !== undefined && content.patch !== '') container.append(patchView(content.patch));
  return container;
}

function appendHunks(target: HTMLElement, diff: LineDiff): void {
  let shown = 0;
  let hidden = 0;
  for (const hunk of diff.hunks) {
    if (shown >= MAX_LINES) {
      hidden += hunk.lines.length;
      continue;
    }
    target.append(h('div', { className: 'diff-line hunk', text: hunkHeader(hunk) }));
    for (const line of hunk.lines) {
      if (shown >= MAX_LINES) {
        hidden++;
        continue;
      }
      const marker = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ';
      target.append(h('div', { className: `diff-line ${line.kind}`, text: `${marker}${line.text}` }));
      shown++;
    }
  }
  if (hidden > 0) target.append(h('div', { className: 'diff-line more', text: `… ${hidden} more lines` }));
}

/** A v2 ready-made patch, shown as the agent wrote it. */
function patchView(patch: string): HTMLElement {
  const lines = h('div', { className: 'diff-lines', attrs: { role: 'group', tabindex: '0', 'aria-label': 'Patch' } });
  const all = splitLines(patch);
  for (const line of all.slice(0, MAX_LINES)) {
    const kind = classifyPatchLine(line);
    lines.append(h('div', { className: `diff-line ${kind === 'del' ? 'del' : kind}`, text: line }));
  }
  if (all.length > MAX_LINES) lines.append(h('div', { className: 'diff-line more', text: `… ${all.length - MAX_LINES} more lines` }));
  return lines;
}
