/**
 * The prompt that sends review comments back to the agent: each comment quoted with its file, line range and the
 * lines it points at, then what the user typed. The lines also go as file attachments with their range, so the
 * agent gets them as embedded context or as resource links, whichever its prompt capabilities allow (prompt-content.ts).
 */
import { pathToFileURL } from 'node:url';
import type { FileAttachment } from '../../shared/attachments';
import type { ReviewThread } from './review-threads';

export interface ReviewPrompt {
  readonly text: string;
  readonly attachments: readonly FileAttachment[];
}

/** `label`: the path as the user reads it (relative to the workspace). */
export function reviewPrompt(threads: readonly ReviewThread[], typed: string, label: (path: string) => string): ReviewPrompt {
  const parts = [`Review comments on your changes (${threads.length}). Please address each one:`];
  threads.forEach((thread, index) => {
    const { startLine, endLine, lines } = thread.anchor;
    const where = startLine === endLine ? `line ${startLine}` : `lines ${startLine}-${endLine}`;
    const outdated = thread.outdated ? ' (outdated: these lines are no longer in the file as quoted)' : '';
    const fence = fenceFor(lines);
    parts.push(
      [
        `${index + 1}. ${label(thread.path)}, ${where}${outdated}:`,
        fence,
        ...lines,
        fence,
        ...thread.comments.map((c) => quote(c.body)),
      ].join('\n'),
    );
  });
  if (typed.trim() !== '') parts.push(typed.trim());
  const attachments = threads
    .filter((t) => !t.outdated)
    .map(
      (t): FileAttachment => ({
        kind: 'file',
        uri: pathToFileURL(t.path).toString(),
        label: label(t.path),
        range: { startLine: t.anchor.startLine, endLine: t.anchor.endLine },
      }),
    );
  return { text: parts.join('\n\n'), attachments };
}

/** A fence longer than any run of backticks in the quoted lines, so the quote cannot end early. */
function fenceFor(lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.map((line) => Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length))));
  return '`'.repeat(longest + 1);
}

function quote(body: string): string {
  return body
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');
}
