/**
 * "ACP: Select Mode…" and "ACP: Change Session Option…": the header's pickers from the command palette and
 * keybindings. Both take optional arguments (`selectMode(modeId)`, `changeSessionOption(configId, value)`) so a
 * keybinding or another extension can set a value directly; without them they ask with quick picks.
 */
import * as vscode from 'vscode';
import type { Conversation } from '../conversations/conversation';
import type { Conversations } from '../conversations/conversations';
import { explainInChat, explainUnlessSessionOpen } from './explain-in-chat';
import { currentChoiceName, modePicker, sessionPickers, type SessionPicker } from '../shared/session-pickers';
import { visibleText } from '../shared/visible-text';
import { shownText } from '../shared/shown-text';

/** Both act on the conversation shown in the chat. */
export function registerSessionOptionCommands(conversations: Conversations): vscode.Disposable {
  const empty = { modes: undefined, configOptions: [] };
  const store = {
    get state() {
      return conversations.shown?.store.state ?? empty;
    },
  };
  const apply = async (picker: SessionPicker, value: string | boolean): Promise<void> => {
    const controller = conversations.shown?.controller;
    if (!controller) return;
    await (picker.source === 'modes' && typeof value === 'string'
      ? controller.setMode(value)
      : controller.setConfigOption(picker.id, value));
  };

  return vscode.Disposable.from(
    vscode.commands.registerCommand('acpClient.selectMode', async (modeId?: unknown) => {
      const shown = runningShown(conversations, 'modes');
      if (!shown) return;
      const picker = modePicker(store.state);
      if (!picker)
        return explainInChat(shown, `${shown.agentName ?? 'The agent'} offers no modes`, 'Its session has no modes to choose from.');
      const value = modeId === undefined ? await pickValue(picker, 'ACP: Select Mode') : validValue(picker, modeId);
      if (value !== undefined && value !== picker.current) await apply(picker, value);
    }),
    vscode.commands.registerCommand('acpClient.changeSessionOption', async (configId?: unknown, value?: unknown) => {
      const shown = runningShown(conversations, 'options');
      if (!shown) return;
      const pickers = sessionPickers(store.state);
      if (pickers.length === 0)
        return explainInChat(shown, `${shown.agentName ?? 'The agent'} offers no options`, 'Its session has no options to change.');
      const picker = configId === undefined ? await pickPicker(pickers) : pickers.find((candidate) => candidate.id === configId);
      if (configId !== undefined && !picker)
        throw new Error(`The agent has no option ${JSON.stringify(configId)}; it has ${pickers.map((p) => p.id).join(', ')}`);
      if (!picker) return;
      const chosen = value === undefined ? await pickValue(picker, `ACP: ${visibleText(picker.name)}`) : validValue(picker, value);
      if (chosen !== undefined && chosen !== picker.current) await apply(picker, chosen);
    }),
  );
}

/** The conversation shown, when its agent's session is open (modes and options belong to one); else the chat says why. */
function runningShown(conversations: Conversations, what: 'modes' | 'options'): Conversation | undefined {
  const shown = conversations.shown;
  if (!shown) return void vscode.window.showInformationMessage(`Open the ACP chat to change its ${what}.`);
  return explainUnlessSessionOpen(shown, what === 'modes' ? 'Choosing a mode' : 'Changing an option') ? shown : undefined;
}

/** A value given as a command argument, checked against what the agent offers (a bad one is the caller's bug). */
function validValue(picker: SessionPicker, value: unknown): string | boolean {
  if (picker.type === 'boolean' && typeof value === 'boolean') return value;
  if (picker.type === 'select' && typeof value === 'string' && picker.choices.some((choice) => choice.value === value)) return value;
  const offered = picker.type === 'boolean' ? 'true or false' : picker.choices.map((choice) => choice.value).join(', ');
  throw new Error(`${JSON.stringify(value)} is not a value of ${picker.name}; it takes ${offered}`);
}

async function pickPicker(pickers: readonly SessionPicker[]): Promise<SessionPicker | undefined> {
  type Item = vscode.QuickPickItem & { picker: SessionPicker };
  const items: Item[] = pickers.map((picker) => ({
    label: shownText(picker.name, 'quick-pick'),
    description: shownText(currentChoiceName(picker), 'quick-pick'),
    ...(picker.description ? { detail: shownText(picker.description, 'quick-pick', 'multiline') } : {}),
    picker,
  }));
  return (await vscode.window.showQuickPick(items, { title: 'ACP: Change Session Option', placeHolder: 'Option to change' }))?.picker;
}

async function pickValue(picker: SessionPicker, title: string): Promise<string | boolean | undefined> {
  type Item = vscode.QuickPickItem & { value: string | boolean };
  const choices =
    picker.type === 'boolean'
      ? [
          { value: true, name: 'On' },
          { value: false, name: 'Off' },
        ]
      : picker.choices;
  const items: Item[] = choices.map((choice) => ({
    label: choice.value === picker.current ? `$(check) ${shownText(choice.name, 'quick-pick')}` : shownText(choice.name, 'quick-pick'),
    ...('description' in choice && choice.description ? { description: shownText(choice.description, 'quick-pick', 'multiline') } : {}),
    value: choice.value,
  }));
  const active = items.find((item) => item.value === picker.current);
  const quickPick = vscode.window.createQuickPick<Item>();
  quickPick.title = title;
  quickPick.placeholder = `Current: ${visibleText(currentChoiceName(picker))}`;
  quickPick.items = items;
  if (active) quickPick.activeItems = [active];
  return new Promise((resolve) => {
    quickPick.onDidAccept(() => {
      resolve(quickPick.selectedItems[0]?.value);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
  });
}
