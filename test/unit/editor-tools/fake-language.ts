/** An in-memory EditorLanguage for the server's own tests: what it answers is set by the test. */
import type { ChangedFile, EditorContext, EditorLanguage, Location, Problem, SymbolInfo } from '../../../src/editor-tools/ports';

export class FakeLanguage implements EditorLanguage {
  problemsByPath = new Map<string, Problem[]>();
  locationsFound: Location[] = [];
  /** Set to make every call hang (a stuck language service). */
  hang = false;
  editorContext: EditorContext = { openEditors: [] };
  changed: ChangedFile[] = [];
  followed: Location[] = [];

  private answer<T>(value: T): Promise<T> {
    return this.hang ? new Promise<T>(() => undefined) : Promise.resolve(value);
  }

  problems(path?: string): Promise<readonly Problem[]> {
    return this.answer(path === undefined ? [...this.problemsByPath.values()].flat() : (this.problemsByPath.get(path) ?? []));
  }
  documentSymbols(): Promise<readonly SymbolInfo[]> {
    return this.answer([]);
  }
  workspaceSymbols(): Promise<readonly SymbolInfo[]> {
    return this.answer([]);
  }
  locations(): Promise<readonly Location[]> {
    return this.answer(this.locationsFound);
  }
  hover(): Promise<readonly string[]> {
    return this.answer(['`const x: number`']);
  }
  callHierarchy(): Promise<readonly []> {
    return this.answer([]);
  }
  context(): Promise<EditorContext> {
    return this.answer(this.editorContext);
  }
  diagnosticsSettled(): Promise<void> {
    return this.answer(undefined);
  }
  changedFiles(): readonly ChangedFile[] {
    return this.changed;
  }
  follow(location: Location): void {
    this.followed.push(location);
  }
}

export function problemAt(path: string, line: number, message: string): Problem {
  return { path, range: { start: { line, character: 0 }, end: { line, character: 5 } }, severity: 'error', message, source: 'fake' };
}
