/** The files a tool call names, so a permission dialog can show them whole rather than by a look-alike title. */
import type { ToolCallFields } from './updates';

/** What a permission dialog shows of a tool call: the transcript's entry, or the request's own fields. */
export type ToolCallShown = Pick<ToolCallFields, 'title' | 'locations' | 'content'>;

export function pathsNamedBy(toolCall: ToolCallShown): readonly string[] {
  const paths = new Set<string>();
  for (const location of toolCall.locations ?? []) paths.add(location.path);
  for (const content of toolCall.content ?? []) {
    if (content.type !== 'diff') continue;
    for (const file of content.files) {
      if (file.oldPath !== undefined) paths.add(file.oldPath);
      paths.add(file.path);
    }
  }
  return [...paths];
}
