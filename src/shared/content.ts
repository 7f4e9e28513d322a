/**
 * Content as the transcript stores it: plain JSON, close to the ACP wire shapes so that what an agent sent
 * can be shown again without loss. Unknown variants are kept (tag + raw payload) and shown generically.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface TextContent {
  readonly type: 'text';
  readonly text: string;
}
export interface ImageContent {
  readonly type: 'image';
  readonly data: string;
  readonly mimeType: string;
  readonly uri?: string;
}
export interface AudioContent {
  readonly type: 'audio';
  readonly data: string;
  readonly mimeType: string;
}
export interface ResourceLinkContent {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
}
export interface EmbeddedResourceContent {
  readonly type: 'resource';
  readonly resource: {
    readonly uri: string;
    readonly mimeType?: string;
    /** Exactly one of text or blob is set by a well-behaved agent. */
    readonly text?: string;
    readonly blob?: string;
  };
}
/** A content block of a kind this client does not know (v2 unions are open). Shown generically. */
export interface UnknownContent {
  readonly type: 'unknown';
  readonly originalType: string;
  readonly raw: JsonObject;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent | UnknownContent;

/** One file touched by a diff. v1 diffs have one file with full texts; v2 diffs list changes and maybe a patch. */
export interface DiffFile {
  readonly path: string;
  /** v2 operation: add, delete, modify, move... (v1: derived, 'add' when oldText is null). */
  readonly operation?: string;
  readonly oldPath?: string;
  /** null = the file did not exist before. Absent = not known (v2 without full texts). */
  readonly oldText?: string | null;
  readonly newText?: string;
}

export type ToolCallContent =
  | { readonly type: 'content'; readonly content: ContentBlock }
  | { readonly type: 'diff'; readonly files: readonly DiffFile[]; readonly patch?: string }
  | { readonly type: 'terminal'; readonly terminalId: string }
  | { readonly type: 'unknown'; readonly originalType: string; readonly raw: JsonObject };

export interface ToolCallLocation {
  readonly path: string;
  /** 1-based line, as the agent sent it. */
  readonly line?: number;
}
