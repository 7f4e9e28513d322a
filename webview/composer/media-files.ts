/**
 * Pasted or dropped images and audio, read into attachments. Only `image/*` and `audio/*` files are media; the
 * size cap keeps a screenshot in while refusing a video's worth of base64 in the draft and the prompt.
 */
import { MAX_MEDIA_BYTES, type MediaAttachment } from '../../src/shared/attachments';

export type MediaRead = { readonly attachment: MediaAttachment } | { readonly refused: string };

/** The kind of attachment a file would be, or undefined when it is neither an image nor audio. */
export function mediaKind(mimeType: string): MediaAttachment['kind'] | undefined {
  if (/^image\/[\w.+-]+$/.test(mimeType)) return 'image';
  if (/^audio\/[\w.+-]+$/.test(mimeType)) return 'audio';
  return undefined;
}

export async function readMedia(file: File, kind: MediaAttachment['kind']): Promise<MediaRead> {
  const label = file.name || (kind === 'image' ? 'Pasted image' : 'Pasted audio');
  if (file.size > MAX_MEDIA_BYTES)
    return { refused: `${label} is larger than ${MAX_MEDIA_BYTES / (1024 * 1024)} MB, so it was not attached.` };
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  }).catch(() => '');
  const comma = dataUrl.indexOf(',');
  if (comma === -1) return { refused: `${label} could not be read, so it was not attached.` };
  return { attachment: { kind, label, mimeType: file.type, data: dataUrl.slice(comma + 1) } };
}
