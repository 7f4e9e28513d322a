/**
 * The editor tools' view of VS Code: diagnostics, the language providers of every installed extension (through
 * the `vscode.execute…Provider` commands, as the editor's own features call them), the open editors, and what
 * changed since a turn began. File URIs only: a virtual document has no path an agent could use.
 */
import * as vscode from 'vscode';
import { followAgentEnabled, revealWithoutFocus } from './follow-agent';
import type {
  CallItem,
  ChangedFile,
  EditorContext,
  EditorLanguage,
  Location,
  LocationKind,
  OpenEditor,
  Position,
  Problem,
  Range,
  Severity,
  SymbolInfo,
} from '../editor-tools/ports';
import { ChangeHistory } from './editor-tools-changes';
import { diagnosticsSettled } from './diagnostics-settled';

const LOCATION_COMMANDS: Record<LocationKind, string> = {
  definition: 'vscode.executeDefinitionProvider',
  references: 'vscode.executeReferenceProvider',
  type_definition: 'vscode.executeTypeDefinitionProvider',
  implementations: 'vscode.executeImplementationProvider',
};

/** How long a document opened only for its diagnostics may take to get its first ones. */
const FIRST_DIAGNOSTICS_MS = 4_000;

export class VscodeEditorLanguage implements EditorLanguage, vscode.Disposable {
  private readonly changes = new ChangeHistory((path) => this.problemsNow(path));

  async problems(path?: string): Promise<readonly Problem[]> {
    if (path === undefined) {
      return vscode.languages
        .getDiagnostics()
        .filter(([uri]) => uri.scheme === 'file')
        .flatMap(([uri, diagnostics]) => diagnostics.map((diagnostic) => problemOf(uri.fsPath, diagnostic)));
    }
    await this.opened(path);
    return this.problemsNow(path);
  }

  async documentSymbols(path: string): Promise<readonly SymbolInfo[]> {
    await this.inTab(path);
    const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      vscode.Uri.file(path),
    );
    const symbols: SymbolInfo[] = [];
    const walk = (symbol: vscode.DocumentSymbol | vscode.SymbolInformation, container: string | undefined): void => {
      if (symbol instanceof vscode.SymbolInformation) {
        symbols.push(
          symbolOf(symbol.name, symbol.kind, symbol.location.uri.fsPath, symbol.location.range, undefined, symbol.containerName),
        );
        return;
      }
      symbols.push(symbolOf(symbol.name, symbol.kind, path, symbol.range, symbol.detail, container));
      for (const child of symbol.children) walk(child, symbol.name);
    };
    for (const symbol of found ?? []) walk(symbol, undefined);
    return symbols;
  }

  async workspaceSymbols(query: string): Promise<readonly SymbolInfo[]> {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
      'vscode.executeWorkspaceSymbolProvider',
      query,
    );
    return (found ?? [])
      .filter((symbol) => symbol.location.uri.scheme === 'file')
      .map((symbol) =>
        symbolOf(symbol.name, symbol.kind, symbol.location.uri.fsPath, symbol.location.range, undefined, symbol.containerName),
      );
  }

  async locations(kind: LocationKind, path: string, position: Position): Promise<readonly Location[]> {
    await this.inTab(path);
    const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
      LOCATION_COMMANDS[kind],
      vscode.Uri.file(path),
      new vscode.Position(position.line, position.character),
    );
    return (found ?? []).flatMap((location) => {
      const uri = location instanceof vscode.Location ? location.uri : location.targetUri;
      const range = location instanceof vscode.Location ? location.range : (location.targetSelectionRange ?? location.targetRange);
      return uri.scheme === 'file' ? [{ path: uri.fsPath, range: rangeOf(range) }] : [];
    });
  }

  async hover(path: string, position: Position): Promise<readonly string[]> {
    await this.inTab(path);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[] | undefined>(
      'vscode.executeHoverProvider',
      vscode.Uri.file(path),
      new vscode.Position(position.line, position.character),
    );
    return (hovers ?? []).flatMap((hover) =>
      hover.contents.map((content) =>
        typeof content === 'string'
          ? content
          : 'language' in content
            ? `\`\`\`${content.language}\n${content.value}\n\`\`\``
            : content.value,
      ),
    );
  }

  async callHierarchy(path: string, position: Position, direction: 'incoming' | 'outgoing'): Promise<readonly CallItem[]> {
    await this.inTab(path);
    const items = await vscode.commands.executeCommand<vscode.CallHierarchyItem[] | undefined>(
      'vscode.prepareCallHierarchy',
      vscode.Uri.file(path),
      new vscode.Position(position.line, position.character),
    );
    const calls: CallItem[] = [];
    for (const item of (items ?? []).slice(0, 5)) {
      if (direction === 'incoming') {
        const incoming = await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[] | undefined>(
          'vscode.provideIncomingCalls',
          item,
        );
        for (const call of incoming ?? []) calls.push(callOf(call.from));
      } else {
        const outgoing = await vscode.commands.executeCommand<vscode.CallHierarchyOutgoingCall[] | undefined>(
          'vscode.provideOutgoingCalls',
          item,
        );
        for (const call of outgoing ?? []) calls.push(callOf(call.to));
      }
    }
    return calls.filter((call) => call.path !== '');
  }

  context(): Promise<EditorContext> {
    const documents = new Map(vscode.workspace.textDocuments.map((document) => [document.uri.toString(), document]));
    const openEditors: OpenEditor[] = [];
    for (const group of vscode.window.tabGroups.all)
      for (const tab of group.tabs) {
        if (!(tab.input instanceof vscode.TabInputText) || tab.input.uri.scheme !== 'file') continue;
        const document = documents.get(tab.input.uri.toString());
        openEditors.push({ path: tab.input.uri.fsPath, languageId: document?.languageId ?? 'unknown', dirty: tab.isDirty });
      }
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme !== 'file') return Promise.resolve({ openEditors });
    const { document, selection, visibleRanges } = editor;
    return Promise.resolve({
      openEditors,
      active: {
        path: document.uri.fsPath,
        languageId: document.languageId,
        dirty: document.isDirty,
        selection: rangeOf(selection),
        // Bounded before it is copied: a selection can be a whole large file.
        selectedText: document.getText(selection).slice(0, 8 * 1024),
        visibleRanges: visibleRanges.map(rangeOf),
      },
    });
  }

  diagnosticsSettled(paths: readonly string[], quietMs: number, signal: AbortSignal): Promise<void> {
    return diagnosticsSettled(
      paths.map((path) => vscode.Uri.file(path)),
      quietMs,
      signal,
    );
  }

  changedFiles(since: number): readonly ChangedFile[] {
    return this.changes.since(since);
  }

  follow(location: Location): void {
    if (!followAgentEnabled()) return;
    const { start, end } = location.range;
    void revealWithoutFocus(location.path, new vscode.Range(start.line, start.character, end.line, end.character)).then(
      undefined,
      () => undefined,
    );
  }

  dispose(): void {
    this.changes.dispose();
  }

  private problemsNow(path: string): Problem[] {
    return vscode.languages.getDiagnostics(vscode.Uri.file(path)).map((diagnostic) => problemOf(path, diagnostic));
  }

  /**
   * A file in no editor tab has no diagnostics and no full language service yet: the built-in JSON server pulls
   * diagnostics only for documents in tabs, and TypeScript syncs only those to tsserver (a hidden document gets
   * answers from a partial, syntax-only view, e.g. its own import line as the definition). So the tools open it
   * in the preview tab without taking the focus: the composer keeps it, and the next preview replaces this one.
   * (A background tab, `vscode.open` with `background: true`, got no diagnostics in the real VS Code 1.139.)
   */
  private async inTab(path: string): Promise<boolean> {
    const uri = vscode.Uri.file(path);
    if (inSomeTab(uri)) return false;
    await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true });
    return true;
  }

  /** Opens the file in a tab if none has it, then gives its language a moment for its first diagnostics. */
  async opened(path: string): Promise<void> {
    const uri = vscode.Uri.file(path);
    if (!(await this.inTab(path))) return;
    await diagnosticsSettled([uri], 300, AbortSignal.timeout(FIRST_DIAGNOSTICS_MS), { firstChange: true });
  }
}

function inSomeTab(uri: vscode.Uri): boolean {
  const wanted = uri.toString();
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === wanted),
  );
}

const SEVERITIES: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function problemOf(path: string, diagnostic: vscode.Diagnostic): Problem {
  const code = diagnostic.code;
  const codeText = code === undefined ? undefined : typeof code === 'object' ? String(code.value) : String(code);
  return {
    path,
    range: rangeOf(diagnostic.range),
    severity: SEVERITIES[diagnostic.severity],
    message: diagnostic.message,
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
    ...(codeText !== undefined ? { code: codeText } : {}),
  };
}

function rangeOf(range: vscode.Range): Range {
  return {
    start: { line: range.start.line, character: range.start.character },
    end: { line: range.end.line, character: range.end.character },
  };
}

function symbolOf(
  name: string,
  kind: vscode.SymbolKind,
  path: string,
  range: vscode.Range,
  detail?: string,
  container?: string,
): SymbolInfo {
  return {
    name,
    kind: vscode.SymbolKind[kind] ?? 'Unknown',
    path,
    range: rangeOf(range),
    ...(detail ? { detail } : {}),
    ...(container ? { container } : {}),
  };
}

function callOf(item: vscode.CallHierarchyItem): CallItem {
  return {
    name: item.name,
    kind: vscode.SymbolKind[item.kind] ?? 'Unknown',
    path: item.uri.scheme === 'file' ? item.uri.fsPath : '',
    range: rangeOf(item.selectionRange),
  };
}
