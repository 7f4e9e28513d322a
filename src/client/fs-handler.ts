/**
 * Serves `fs/read_text_file` and `fs/write_text_file`: the editor's view of a file (unsaved edits included),
 * writes through the editor so they can be undone, and nothing at all outside the workspace folders.
 */
import { RpcError, RpcErrorCode } from '../acp/rpc-boundary';
import type { MissingFileAnswer } from './missing-file-answer';
import { confinePath } from './path-confinement';
import type { FileAccessObserver, WorkspaceFiles } from './ports';
import { readWindow } from './read-window';
import { sliceLines } from './text-window';
import { DEFAULT_MAX_READ_BYTES } from '../shared/limits';
import { readTooLargeMessage } from './read-limit';
import { errorMessage } from '../shared/error-text';

/** ACP's "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

export interface RefusedAccess {
  readonly operation: 'read' | 'write';
  readonly path: string;
  readonly reason: string;
}

export class FileSystemHandler {
  constructor(
    private readonly files: WorkspaceFiles,
    private readonly onRefused: (refused: RefusedAccess) => void,
    /** The cap on one answer (setting `acpClient.limits.maxReadMB`), read per request so a change applies at once. */
    private readonly maxReadBytes: () => number = () => DEFAULT_MAX_READ_BYTES,
    /** Change tracking: sees each write before it lands (and may refuse it) and each whole-file read. */
    private readonly observer?: FileAccessObserver,
  ) {}

  /** The editor changes these files for the agent (an editor action the user allowed): the turn's change card captures them. */
  async claimWrites(paths: readonly string[]): Promise<void> {
    for (const path of paths) await this.observer?.claimWrite?.(path);
  }

  /** The code of a write the user refused to let through (review before write): a plain JSON-RPC request error. */
  static readonly WRITE_REFUSED = RpcErrorCode.InvalidRequest;

  async readTextFile(
    params: { path: string; line?: number | null; limit?: number | null; sessionId?: string },
    missingFile: MissingFileAnswer = 'not_found_error',
  ): Promise<{ content: string }> {
    const target = await this.confine('read', params.path);
    const line = params.line ?? undefined;
    const limit = params.limit ?? undefined;
    const cap = this.maxReadBytes();
    const open = this.files.openDocumentText(target);
    if (open !== undefined) {
      // The editor already holds this text; only the answer is bounded. UTF-16 length is a lower bound on bytes.
      const content = sliceLines(open, line, limit);
      if (content.length > cap) throw tooLarge(params.path, content.length, cap, line, limit);
      if (line === undefined && limit === undefined) this.observer?.afterRead(target, content, params.sessionId);
      return { content };
    }
    try {
      const windowed = line !== undefined || limit !== undefined;
      if (!windowed) {
        const size = await this.files.fileSize(target);
        if (size > cap) throw tooLarge(params.path, size, cap, line, limit);
      }
      const read = await readWindow(this.files.readFileChunks(target), line, limit, cap);
      if (read.kind === 'too_large') throw tooLarge(params.path, read.atLeastBytes, cap, line, limit);
      if (!windowed) this.observer?.afterRead(target, read.text, params.sessionId);
      return { content: read.text };
    } catch (error) {
      if (error instanceof RpcError) throw error;
      if (missingFile === 'empty_content' && !(await this.exists(target))) return { content: '' };
      throw new RpcError(RESOURCE_NOT_FOUND, `Cannot read ${params.path}: ${errorMessage(error)}`, { uri: params.path });
    }
  }

  async writeTextFile(params: { path: string; content: string; sessionId?: string }): Promise<Record<string, never>> {
    const target = await this.confine('write', params.path);
    const verdict = this.observer ? await this.observer.beforeWrite(target, params.content, params.sessionId) : { allowed: true as const };
    if (!verdict.allowed) throw new RpcError(FileSystemHandler.WRITE_REFUSED, `Did not write ${params.path}: ${verdict.reason}`);
    // The review may have waited minutes: what the path resolves to is judged again, so a link planted meanwhile
    // (the agent's own tools can make one) cannot carry the accepted write somewhere else.
    if ((await this.confine('write', params.path)) !== target)
      throw new RpcError(
        RpcErrorCode.InvalidParams,
        `Refused to write ${params.path}: it now resolves to another file than the one reviewed.`,
      );
    try {
      await this.files.writeFileText(target, params.content);
    } catch (error) {
      throw new RpcError(RpcErrorCode.InternalError, `Cannot write ${params.path}: ${errorMessage(error)}`);
    }
    return {};
  }

  private async exists(target: string): Promise<boolean> {
    try {
      await this.files.fileSize(target);
      return true;
    } catch {
      return false;
    }
  }

  private async confine(operation: 'read' | 'write', requested: string): Promise<string> {
    const verdict = await confinePath(requested, this.files.roots());
    if (!verdict.allowed) {
      this.onRefused({ operation, path: requested, reason: verdict.reason });
      throw new RpcError(
        RpcErrorCode.InvalidParams,
        `Refused to ${operation} ${requested}: ${verdict.reason}. The client only serves files inside the workspace.`,
      );
    }
    return verdict.realPath;
  }
}

function tooLarge(
  path: string,
  bytes: number,
  cap: number,
  line: number | undefined,
  limit: number | undefined,
): RpcError<{ size: number; limit: number }> {
  return new RpcError(RpcErrorCode.InvalidParams, readTooLargeMessage(path, bytes, cap, line !== undefined || limit !== undefined), {
    size: bytes,
    limit: cap,
  });
}
