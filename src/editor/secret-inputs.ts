/**
 * `${input:ID}` values for MCP servers, kept in VS Code's SecretStorage (the OS keychain), asked for once with a
 * password box. Never written to settings, never logged. A server from the user's settings keeps the key by id it
 * always had; a server a workspace defined gets keys of its own (that workspace, that exact definition), so a value
 * typed for one project never goes to a server another project names with the same id.
 */
import * as vscode from 'vscode';
import type { DefinitionOrigin } from '../agents/definition-scopes';
import type { InputValues } from '../agents/mcp-references';
import { shownText } from '../shared/shown-text';

const KEY_PREFIX = 'acpClient.mcp.input.';

export class VscodeSecretInputs implements InputValues {
  /** Two starts asking for the same input share one box. */
  private readonly asking = new Map<string, Promise<string | undefined>>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The user's own servers' inputs (keyed by id, as before). */
  value(id: string, prompt: string): Promise<string | undefined> {
    return this.valueAt(KEY_PREFIX + id, `MCP server input "${id}"`, prompt);
  }

  /** The inputs of a server with this origin: the user's share ids; a workspace definition has its own. */
  forOrigin(origin: DefinitionOrigin): InputValues {
    if (origin.kind === 'user') return this;
    const prefix = `${KEY_PREFIX}workspace.${origin.workspaceKey}.${origin.fingerprint}.`;
    return {
      value: (id, prompt) => this.valueAt(prefix + id, `Input "${id}" for an MCP server this workspace defines`, prompt),
    };
  }

  private async valueAt(key: string, title: string, prompt: string): Promise<string | undefined> {
    const stored = await this.secrets.get(key);
    if (stored !== undefined) return stored;
    let pending = this.asking.get(key);
    if (!pending) {
      pending = this.ask(key, title, prompt).finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  private async ask(key: string, title: string, prompt: string): Promise<string | undefined> {
    const value = await vscode.window.showInputBox({
      title: shownText(title, 'plain'),
      prompt: shownText(prompt, 'input-prompt'),
      password: true,
      ignoreFocusOut: true,
    });
    if (value === undefined) return undefined;
    await this.secrets.store(key, value);
    return value;
  }
}
