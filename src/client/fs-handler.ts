/**
 * Serves `fs/read_text_file` and `fs/write_text_file`: the editor's view of a file (unsaved edits included),
 * writes through the editor so they can be undone, and nothing at all outside the workspace folders.
 */
import { createHash } from 'node:crypto';
import { RpcError, RpcErrorCode } from '../acp/rpc-boundary';
import type { MissingFileAnswer } from './missing-file-answer';
import { openForRead, type OpenedFile, type OpenForRead } from './open-for-read';
import { confinePath, realRootsOf } from './path-confinement';
import type { FileAccessObserver, WorkspaceFiles } from './ports';
import { readWindow } from './read-window';
import { sliceLines } from './text-window';
import { DEFAULT_MAX_READ_BYTES } from '../shared/limits';
import { readTooLargeMessage } from './read-limit';
import { errorMessage } from '../shared/error-text';
import { inspectWriteTarget, type WriteTarget } from './write-target';
import { TaskLimit } from '../shared/task-limit';

/** ACP's "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * Files one handler (one session) reads at once; later reads wait their turn. Each read holds up to the read cap of
 * bytes, then its text, until it answers, so an agent sending dozens at once would pile hundreds of MB into the
 * extension host that every extension shares (30 reads of 10 MB files added 646 MB). Four is what libuv's
 * file-system thread pool runs at once by default: more reads in flight would only queue there, so an honest agent
 * loses next to no speed, and the memory stays near four answers. An open document's text is read in a turn too:
 * its answer is a copy all the same.
 */
const MAX_READS_AT_ONCE = 4;

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
    /** How a file is opened on disk (open-for-read.ts); tests wrap it to watch how many reads are in flight. */
    private readonly openFile: typeof openForRead = openForRead,
  ) {}

  /** The editor changes these files for the agent (an editor action the user allowed): the turn's change card captures them. */
  async claimWrites(paths: readonly string[]): Promise<void> {
    for (const path of paths) await this.observer?.claimWrite?.(path);
  }

  /** The code of a write the user refused to let through (review before write): a plain JSON-RPC request error. */
  static readonly WRITE_REFUSED = RpcErrorCode.InvalidRequest;

  /** A digest of the unsaved text of each open document the agent last read whole (see `readAsItIs`). */
  private readonly unsavedTextRead = new Map<string, string>();

  private readonly reads = new TaskLimit(MAX_READS_AT_ONCE);

  /**
   * @param untilAnswerable awaited in the read's turn, before anything is read: the connection's "until little waits
   * unsent to the agent" (agent-requests.ts). Awaited on arrival instead, a burst of requests passed it together
   * before any answer existed, and an agent that then read nothing still had every file read and queued for it.
   */
  async readTextFile(
    params: { path: string; line?: number | null; limit?: number | null; sessionId?: string },
    missingFile: MissingFileAnswer = 'not_found_error',
    untilAnswerable?: () => Promise<void>,
  ): Promise<{ content: string }> {
    const target = await this.confine('read', params.path);
    return this.reads.run(async () => {
      await untilAnswerable?.();
      return this.readConfined(params, target, missingFile);
    });
  }

  private async readConfined(
    params: { path: string; line?: number | null; limit?: number | null; sessionId?: string },
    target: string,
    missingFile: MissingFileAnswer,
  ): Promise<{ content: string }> {
    const line = params.line ?? undefined;
    const limit = params.limit ?? undefined;
    const cap = this.maxReadBytes();
    const open = this.files.openDocumentText(target);
    if (open !== undefined) {
      // The editor already holds this text; only the answer is bounded. UTF-16 length is a lower bound on bytes.
      const content = sliceLines(open, line, limit);
      if (content.length > cap) throw tooLarge(params.path, content.length, cap, line, limit);
      if (line === undefined && limit === undefined) {
        this.observer?.afterRead(target, content, params.sessionId);
        if (this.files.hasUnsavedEdits(target)) this.unsavedTextRead.set(target, digest(open));
      }
      return { content };
    }
    const windowed = line !== undefined || limit !== undefined;
    const opened = await this.openOnDisk(params.path, target, missingFile);
    if (opened === 'missing') return { content: '' };
    try {
      if (!windowed && opened.size > cap) throw tooLarge(params.path, opened.size, cap, line, limit);
      const read = await readWindow(opened.chunks(), line, limit, cap);
      if (read.kind === 'too_large') throw tooLarge(params.path, read.atLeastBytes, cap, line, limit);
      if (!windowed) this.observer?.afterRead(target, read.text, params.sessionId);
      return { content: read.text };
    } catch (error) {
      if (error instanceof RpcError) throw error;
      throw cannotRead(params.path, error);
    } finally {
      await opened.close().catch(() => undefined);
    }
  }

  async writeTextFile(params: { path: string; content: string; sessionId?: string }): Promise<Record<string, never>> {
    const target = await this.confine('write', params.path);
    // A write that cannot land is refused before the user is asked to review it.
    await this.refuseUnwritable(params.path, target);
    const verdict = this.observer ? await this.observer.beforeWrite(target, params.content, params.sessionId) : { allowed: true as const };
    if (!verdict.allowed) throw new RpcError(FileSystemHandler.WRITE_REFUSED, `Did not write ${params.path}: ${verdict.reason}`);
    // The review may have waited minutes: what the path resolves to is judged again, so a link planted meanwhile
    // (the agent's own tools can make one) cannot carry the accepted write somewhere else.
    if ((await this.confine('write', params.path)) !== target)
      throw new RpcError(
        RpcErrorCode.InvalidParams,
        `Refused to write ${params.path}: it now resolves to another file than the one reviewed.`,
      );
    // Judged again after the review, and as late as can be: a hard link made or an edit typed meanwhile counts.
    await this.refuseUnwritable(params.path, target);
    try {
      await this.files.writeFileText(target, params.content);
    } catch (error) {
      throw new RpcError(RpcErrorCode.InternalError, `Cannot write ${params.path}: ${errorMessage(error)}`);
    }
    return {};
  }

  /**
   * The file opened on disk (open-for-read.ts: the very file read is the one judged inside the workspace, and it is
   * a regular file), or 'missing' when it is missing and this agent takes empty content for that.
   */
  private async openOnDisk(requested: string, target: string, missingFile: MissingFileAnswer): Promise<OpenedFile | 'missing'> {
    let opened: OpenForRead;
    try {
      opened = await this.openFile(target, await realRootsOf(this.files.roots()));
    } catch (error) {
      if (missingFile === 'empty_content' && !(await this.exists(target))) return 'missing';
      throw cannotRead(requested, error);
    }
    if (opened.kind === 'opened') return opened.file;
    if (opened.outside) this.onRefused({ operation: 'read', path: requested, reason: opened.reason });
    throw new RpcError(RpcErrorCode.InvalidParams, `Refused to read ${requested}: ${opened.reason}.`);
  }

  /**
   * Refuses a write that would change a file other than the workspace's own (write-target.ts: a link, a hard link,
   * a folder on the way that links out, judged on disk component by component) or discard the user's unsaved edits
   * (as editor actions do): the agent is told why, and can read the file again and retry.
   */
  private async refuseUnwritable(requested: string, target: string): Promise<void> {
    let verdict: WriteTarget;
    try {
      verdict = await inspectWriteTarget(target, this.files.roots(), 'write');
    } catch (error) {
      throw new RpcError(RpcErrorCode.InternalError, `Cannot write ${requested}: ${errorMessage(error)}`);
    }
    if (verdict.kind === 'blocked') {
      this.onRefused({ operation: 'write', path: requested, reason: verdict.reason });
      throw new RpcError(RpcErrorCode.InvalidParams, `Refused to write ${requested}: ${verdict.reason}. Nothing was written.`);
    }
    if (this.files.hasUnsavedEdits(target) && !this.readAsItIs(target))
      throw new RpcError(
        FileSystemHandler.WRITE_REFUSED,
        `Did not write ${requested}: it has unsaved changes in the editor that the agent has not read. Read the file ` +
          'again (its unsaved text), or the user saves or reverts it first. Nothing was written.',
      );
  }

  /**
   * The agent read the whole of the document's unsaved text as it is now: its write then builds on the user's edits
   * (reading the buffer and writing through the editor is how an agent works with a file the user is editing). Any
   * edit since that read, or no read at all, and the write would discard words the agent never saw.
   */
  private readAsItIs(target: string): boolean {
    const text = this.files.openDocumentText(target);
    return text !== undefined && this.unsavedTextRead.get(target) === digest(text);
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

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/** ACP's "resource not found", as answered for any file that cannot be opened or read (missing ones first). */
function cannotRead(path: string, error: unknown): RpcError<{ uri: string }> {
  return new RpcError(RESOURCE_NOT_FOUND, `Cannot read ${path}: ${errorMessage(error)}`, { uri: path });
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
