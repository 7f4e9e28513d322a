/**
 * `${input:ID}` values for MCP servers, kept in VS Code's SecretStorage (the OS keychain), asked for once with a
 * password box. Never written to settings, never logged.
 */
import * as vscode from 'vscode';
import type { InputValues } from '../agents/mcp-references';
import { shownText } from '../shared/shown-text';

const KEY_PREFIX = 'acpClient.mcp.input.';

export class VscodeSecretInputs implements InputValues {
  /** Two starts asking for the same input share one box. */
  private readonly asking = new Map<string, Promise<string | undefined>>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async value(id: string, prompt: string): Promise<string | undefined> {
    const stored = await this.secrets.get(KEY_PREFIX + id);
    if (stored !== undefined) return stored;
    let pending = this.asking.get(id);
    if (!pending) {
      pending = this.ask(id, prompt).finally(() => this.asking.delete(id));
      this.asking.set(id, pending);
    }
    return pending;
  }

  private async ask(id: string, prompt: string): Promise<string | undefined> {
    const value = await vscode.window.showInputBox({
      title: `MCP server input "${shownText(id, 'plain')}"`,
      prompt: shownText(prompt, 'input-prompt'),
      password: true,
      ignoreFocusOut: true,
    });
    if (value === undefined) return undefined;
    await this.secrets.store(KEY_PREFIX + id, value);
    return value;
  }
}
