/**
 * Slash commands in the composer: when the prompt so far is `/` and a word, which of the agent's commands match,
 * best first, and what accepting one does to the text. Pure, so it is tested without a DOM.
 */
import type { AvailableCommand } from '../../src/shared/model';

/** The word being typed after a leading `/`, or undefined when the caret is not in a slash command's name. */
export function slashQuery(text: string, caret: number): string | undefined {
  const before = text.slice(0, caret);
  const match = /^\/(\S*)$/.exec(before);
  return match ? match[1] : undefined;
}

/** Commands whose name starts with the query first, then those containing it; each group by name. */
export function matchCommands(commands: readonly AvailableCommand[], query: string): AvailableCommand[] {
  const wanted = query.toLowerCase();
  const byName = (a: AvailableCommand, b: AvailableCommand): number => a.name.localeCompare(b.name);
  const prefix = commands.filter((command) => command.name.toLowerCase().startsWith(wanted)).sort(byName);
  const inside = commands
    .filter((command) => !command.name.toLowerCase().startsWith(wanted) && command.name.toLowerCase().includes(wanted))
    .sort(byName);
  return [...prefix, ...inside];
}

/** The text after accepting `command`: its name replaces the word typed so far, followed by one space. */
export function acceptCommand(text: string, command: AvailableCommand): { text: string; caret: number } {
  const rest = text.replace(/^\/\S*/, '').replace(/^ /, '');
  const head = `/${command.name} `;
  return { text: head + rest, caret: head.length };
}

/** The command the prompt starts with, if it is one of the agent's: its input hint is shown while no input is typed. */
export function commandBeingUsed(text: string, commands: readonly AvailableCommand[]): AvailableCommand | undefined {
  const match = /^\/(\S+) $/.exec(text);
  return match ? commands.find((command) => command.name === match[1]) : undefined;
}
