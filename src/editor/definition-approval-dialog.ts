/**
 * The approval of a workspace's definitions on VS Code: a modal warning whose detail lists the definition whole
 * (plain text: no markdown, links or codicons are rendered in a modal's detail), and the approved fingerprints in
 * the workspace's own state, so an approval never carries over to another workspace.
 */
import * as vscode from 'vscode';
import type { AgentConfig } from '../agents/agent-config';
import type { DefinitionApprovals } from '../agents/definition-approval';
import {
  refusalNotice,
  type ApprovalDialog,
  type ApprovalMemory,
  type ApprovalRequest,
  type RunFilesOf,
} from '../agents/definition-approval';
import { workspaceRunFiles } from '../agents/workspace-run-files';
import type { LaunchApproval } from '../session/ports';

const APPROVED_KEY = 'acpClient.approvedDefinitions';

export function workspaceApprovalMemory(state: vscode.Memento): ApprovalMemory {
  const approved = (): readonly string[] => state.get<readonly string[]>(APPROVED_KEY) ?? [];
  return {
    has: (fingerprint) => approved().includes(fingerprint),
    remember: (fingerprint) => Promise.resolve(state.update(APPROVED_KEY, [...approved(), fingerprint])),
  };
}

/** The workspace files a definition's command line names, in this window's folders on disk (the first: its cwd). */
export const vscodeRunFilesOf: RunFilesOf = (definition) => {
  if (!('command' in definition)) return Promise.resolve([]);
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  return workspaceRunFiles(definition.command, definition.args, folders);
};

/**
 * The modal. Integration tests (extension mode Test only, never an installed extension) may put their own answerer
 * in front of it to see exactly what it would show and answer as the user would.
 */
export class ModalApprovalDialog implements ApprovalDialog {
  answerer: ((request: ApprovalRequest) => Promise<boolean>) | undefined;

  async ask(request: ApprovalRequest): Promise<boolean> {
    if (this.answerer) return this.answerer(request);
    const picked = await vscode.window.showWarningMessage(request.message, { modal: true, detail: request.detail }, request.approve);
    return picked === request.approve;
  }
}

/** Starting an agent the workspace defined waits for the user's approval of that definition. */
export function agentLaunchApproval(approvals: DefinitionApprovals): LaunchApproval {
  return {
    async refusal(agent: AgentConfig) {
      const origin = agent.origin;
      const definition = {
        kind: 'agent' as const,
        name: agent.name,
        command: agent.command,
        args: agent.args,
        env: agent.env,
        ...(agent.apiKeyEnv !== undefined ? { apiKeyEnv: agent.apiKeyEnv } : {}),
      };
      if (await approvals.approve(definition, origin)) return undefined;
      return refusalNotice(definition, origin?.kind === 'workspace' ? origin.file : 'this workspace');
    },
  };
}
