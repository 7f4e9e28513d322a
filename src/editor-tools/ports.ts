/**
 * What the editor's MCP server asks of the editor: its language services and what the user has open. Positions
 * are 0-based here, as VS Code has them; the tools speak 1-based lines and columns to the model. Paths are
 * absolute file-system paths. The VS Code side (src/editor/editor-language.ts) implements it.
 */

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export interface Location {
  readonly path: string;
  readonly range: Range;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface Problem {
  readonly path: string;
  readonly range: Range;
  readonly severity: Severity;
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

export interface SymbolInfo {
  readonly name: string;
  readonly kind: string;
  readonly path: string;
  readonly range: Range;
  readonly detail?: string;
  readonly container?: string;
}

export interface CallItem {
  readonly name: string;
  readonly kind: string;
  readonly path: string;
  readonly range: Range;
}

export interface OpenEditor {
  readonly path: string;
  readonly languageId: string;
  readonly dirty: boolean;
}

export interface EditorContext {
  readonly openEditors: readonly OpenEditor[];
  readonly active?: OpenEditor & { readonly selection: Range; readonly selectedText: string; readonly visibleRanges: readonly Range[] };
}

export interface ChangedFile {
  readonly path: string;
  /** The file's diagnostics as they were just before its first change after `since`. */
  readonly problemsBefore: readonly Problem[];
}

export type LocationKind = 'definition' | 'references' | 'type_definition' | 'implementations';

export interface EditorLanguage {
  /** Diagnostics of one file, or of every file the editor has some for. */
  problems(path?: string): Promise<readonly Problem[]>;
  documentSymbols(path: string): Promise<readonly SymbolInfo[]>;
  workspaceSymbols(query: string): Promise<readonly SymbolInfo[]>;
  locations(kind: LocationKind, path: string, position: Position): Promise<readonly Location[]>;
  /** The hover's text (type and docs), as markdown, one entry per provider. */
  hover(path: string, position: Position): Promise<readonly string[]>;
  callHierarchy(path: string, position: Position, direction: 'incoming' | 'outgoing'): Promise<readonly CallItem[]>;
  context(): Promise<EditorContext>;
  /** Resolves once the diagnostics of these files have not changed for `quietMs` (or at once when none are pending). */
  diagnosticsSettled(paths: readonly string[], quietMs: number, signal: AbortSignal): Promise<void>;
  /** Files changed (in the editor or on disk) since `since` (ms since the epoch), with their problems before that change. */
  changedFiles(since: number): readonly ChangedFile[];
  /** Shows the file and range a tool reads, without taking focus (acpClient.followAgent); a no-op when off. */
  follow(location: Location): void;
}
