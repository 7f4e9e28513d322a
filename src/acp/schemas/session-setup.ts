/** Turns a session's setup answer (`session/new`, `load`, `resume`, `fork`) into the model's modes, options and commands. */
import type { AvailableCommand, ConfigOption, SessionModes } from '../../shared/model';
import type { SessionSetupResult } from './agent-results';
import { parseCommands, parseConfigOptions } from './session-update-fields';

/** What a setup answer tells about the session, beyond its id. */
export interface SessionSetup {
  readonly modes?: SessionModes;
  readonly configOptions?: readonly ConfigOption[];
  /** v2 may list the slash commands in the answer rather than in an update. */
  readonly availableCommands?: readonly AvailableCommand[];
}

export function sessionSetupOf(result: SessionSetupResult, problems: string[]): SessionSetup {
  if (!result) return {};
  const modes = modesOf(result);
  const configOptions = configOptionsOf(result.configOptions, problems);
  const commands = result['availableCommands'];
  const availableCommands = commands === undefined ? undefined : parseCommands(commands, problems);
  return {
    ...(modes ? { modes } : {}),
    ...(configOptions ? { configOptions } : {}),
    ...(availableCommands ? { availableCommands } : {}),
  };
}

function modesOf(result: NonNullable<SessionSetupResult>): SessionModes | undefined {
  if (!result.modes) return undefined;
  return {
    current: result.modes.currentModeId,
    available: result.modes.availableModes.map((mode) => ({
      id: mode.id,
      name: mode.name,
      ...(mode.description ? { description: mode.description } : {}),
    })),
  };
}

export function configOptionsOf(raw: readonly unknown[] | null | undefined, problems: string[]): ConfigOption[] | undefined {
  return raw ? parseConfigOptions(raw, problems) : undefined;
}

/** A session the agent created (`session/new`, `session/fork`): its id and setup. */
export interface OpenedSession extends SessionSetup {
  readonly sessionId: string;
}
