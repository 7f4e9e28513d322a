/**
 * Serves `fs/read_text_file` and `fs/write_text_file`: the editor's view of a file (unsaved edits included),
 * writes through the editor so they can be undone, and nothing at all outside the workspace folders.
 */
import { ResponseError, ErrorCodes } from 'vscode-jsonrpc';
import type { MissingFileAnswer } from './missing-file-answer';
import { confinePath } from './path-confinement';
import type { WorkspaceFiles } from './ports';
import { sliceLines } from './text-window';

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
  ) {}

  async readTextFile(params: { path: string; line?: number | null; limit?: number | null }, missingFile: MissingFileAnswer = 'not_found_error'): Promise<{ content: string }> {
    const target = await this.confine('read', params.path);
    const open = this.files.openDocumentText(target);
    let text: string;
    if (open !== undefined) {
      text = open;
    } else {
      try {
        text = await this.files.readFileText(target);
      } catch (error) {
        if (missingFile === 'empty_content' && !(await this.exists(target))) return { content: '' };
        throw new ResponseError(RESOURCE_NOT_FOUND, `Cannot read ${params.path}: ${describe(error)}`, { uri: params.path });
      }
    }
    return { content: sliceLines(text, params.line ?? undefined, params.limit ?? undefined) };
  }

  async writeTextFile(params: { path: string; content: string }): Promise<Record<string, never>> {
    const target = await this.confine('write', params.path);
    try {
      await this.files.writeFileText(target, params.content);
    } catch (error) {
      throw new ResponseError(ErrorCodes.InternalError, `Cannot write ${params.path}: ${describe(error)}`);
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
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `Refused to ${operation} ${requested}: ${verdict.reason}. The client only serves files inside the workspace.`,
      );
    }
    return verdict.realPath;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
