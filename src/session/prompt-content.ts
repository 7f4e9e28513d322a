/**
 * Turns the composer's text and attachments into the prompt's content blocks, honouring what the agent
 * advertised (seeds: text and resource_link always; `resource` only with embeddedContext; `image`/`audio` only
 * when advertised). Nothing the agent did not advertise is ever sent: such a prompt is refused with the reason.
 */
import { sliceLines } from '../client/text-window';
import { attachmentTitle, refusalReason, type Attachment, type FileAttachment, type PromptCapabilities } from '../shared/attachments';
import type { ContentBlock } from '../shared/content';

/** Reads an attached file as the user sees it now, or says why it cannot be embedded (binary, too large...). */
export type AttachmentText = (uri: string) => Promise<{ readonly text: string } | { readonly unavailable: string }>;

export type PromptContent =
  | { readonly ok: true; readonly content: ContentBlock[]; readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

export async function buildPromptContent(
  text: string,
  attachments: readonly Attachment[],
  capabilities: PromptCapabilities,
  agentName: string,
  readText: AttachmentText,
): Promise<PromptContent> {
  for (const attachment of attachments) {
    const refused = refusalReason(attachment, capabilities, agentName);
    if (refused) return { ok: false, reason: refused };
  }
  if (text.trim() === '' && attachments.length === 0) return { ok: false, reason: 'The prompt is empty.' };
  const content: ContentBlock[] = text.trim() === '' ? [] : [{ type: 'text', text }];
  const notes: string[] = [];
  for (const attachment of attachments) {
    if (attachment.kind === 'file') {
      const block = capabilities.embeddedContext ? await embedded(attachment, readText, notes) : undefined;
      content.push(block ?? linkTo(attachment));
    } else {
      content.push({ type: attachment.kind, mimeType: attachment.mimeType, data: attachment.data });
    }
  }
  return { ok: true, content, notes };
}

/** The file (or its selected lines) as an embedded resource; undefined (send a link) when it cannot be read as text. */
async function embedded(attachment: FileAttachment, readText: AttachmentText, notes: string[]): Promise<ContentBlock | undefined> {
  const read = await readText(attachment.uri);
  if ('unavailable' in read) {
    notes.push(`${attachmentTitle(attachment)} was sent as a link: ${read.unavailable}`);
    return undefined;
  }
  const range = attachment.range;
  const body = range ? sliceLines(read.text, range.startLine, range.endLine - range.startLine + 1) : read.text;
  return { type: 'resource', resource: { uri: uriOf(attachment), text: body } };
}

function linkTo(attachment: FileAttachment): ContentBlock {
  return { type: 'resource_link', uri: uriOf(attachment), name: attachmentTitle(attachment) };
}

/** A selection is named by a `#L<start>-<end>` fragment, the convention code hosts use for line ranges. */
function uriOf(attachment: FileAttachment): string {
  const range = attachment.range;
  return range ? `${attachment.uri}#L${range.startLine}-${range.endLine}` : attachment.uri;
}
