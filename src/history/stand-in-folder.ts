/**
 * How VS Code names a stand-in workspace storage folder: `<id>-1` to `<id>-9` after `<id>` (storage-folder.ts). Alone,
 * so the first bundle (views/preview-file.ts) reads the name without the rest of the storage-folder code.
 */

/** VS Code tries `<id>-1` to `<id>-9` after `<id>`. */
const SUFFIXED = /^(.+)-([1-9])$/;

/** `<id>` and the suffix when `folderName` is `<id>-N` (N in 1..9), as VS Code names the next free folder. */
export function suffixedFolder(folderName: string): { readonly base: string; readonly suffix: number } | undefined {
  const match = SUFFIXED.exec(folderName);
  return match?.[1] && match[2] ? { base: match[1], suffix: Number(match[2]) } : undefined;
}
