/**
 * What a paste or a drop attaches. Files dragged from VS Code (Shift+drag into the chat) arrive as URI lists and
 * attach as files; images and audio from the clipboard or the desktop attach as media, but only when the agent
 * takes them; anything else is refused with a reason the composer shows.
 */
import { mediaRefusal, type Attachment, type PromptCapabilities } from '../../src/shared/attachments';
import { mediaKind, readMedia } from './media-files';

const URI_LIST_TYPES = ['application/vnd.code.uri-list', 'text/uri-list'];

export function isAttachableDrag(transfer: DataTransfer | null): boolean {
  return transfer !== null && [...transfer.types].some((type) => type === 'Files' || URI_LIST_TYPES.includes(type));
}

export interface Dropped {
  readonly files: readonly File[];
  readonly uris: readonly string[];
}

export async function droppedAttachments(
  dropped: Dropped,
  capabilities: PromptCapabilities,
  agentName: string,
): Promise<{ attachments: Attachment[]; refusals: string[] }> {
  const attachments: Attachment[] = [];
  const refusals: string[] = [];
  const fileUris = dropped.uris.filter((uri) => uri.startsWith('file:'));
  // A file dragged from VS Code or the desktop comes as both a URI and a File: the URI is the better reference.
  if (fileUris.length > 0) {
    for (const uri of fileUris) attachments.push({ kind: 'file', uri, label: labelOf(uri) });
    return { attachments, refusals };
  }
  for (const file of dropped.files) {
    const kind = mediaKind(file.type);
    const name = file.name || 'The pasted item';
    if (!kind) {
      refusals.push(`${name} is not an image or audio; attach files with @ or "Add to ACP Chat".`);
      continue;
    }
    const refused = mediaRefusal(kind, name, capabilities, agentName);
    if (refused) {
      refusals.push(refused);
      continue;
    }
    const read = await readMedia(file, kind);
    if ('refused' in read) refusals.push(read.refused);
    else attachments.push(read.attachment);
  }
  return { attachments, refusals };
}

/** The file name: the webview does not know the workspace root, and the chip's tooltip shows the full path. */
function labelOf(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
