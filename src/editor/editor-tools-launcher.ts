/** The editor's MCP server as the sessions start it: the setting, VS Code's language services, the workspace folders. */
import * as vscode from 'vscode';
import type { McpCapabilities } from '../acp/agent-capabilities';
import { bridgeScript } from '../editor-tools/bridge/bridge-script';
import type { EditorToolsLauncher } from '../editor-tools/editor-tools-offer';
import type { RunningEditorTools } from '../editor-tools/editor-tools-server';
import type { ActionAsker } from '../editor-tools/action-ports';
import type { EditorLanguage } from '../editor-tools/ports';
import { VscodeEditorActions } from './editor-actions';
import { userSetting } from './user-settings';

export function vscodeEditorToolsLauncher(language: EditorLanguage & { opened(path: string): Promise<void> }): EditorToolsLauncher {
  const actions = new VscodeEditorActions((path) => language.opened(path));
  return {
    // A workspace cannot turn it on or off for the user: the setting is the user's.
    enabled: () => userSetting('editorTools.enabled') !== false,
    start: async (capabilities: McpCapabilities, asker?: ActionAsker): Promise<RunningEditorTools> => {
      // The MCP SDK and its validator load with the first agent that gets the tools (esbuild.mjs: lazy parts).
      const { startEditorTools } = await import('../editor-tools/editor-tools-server');
      return startEditorTools(
        {
          language,
          roots: () =>
            (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath),
          // The editor's own executable runs the bridge as Node (ELECTRON_RUN_AS_NODE), as it runs the agent supervisor.
          bridge: { node: process.execPath, script: bridgeScript },
          actions,
        },
        capabilities,
        asker,
      );
    },
  };
}
