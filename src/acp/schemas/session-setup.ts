/** Turns a session's setup answer (`session/new`, `load`, `resume`, `fork`) into the model's modes, options and commands. */
import { LEGACY_MODEL_OPTION, type AvailableCommand, type ConfigOption, type SessionModes } from '../../shared/model';
import { legacyModels, type SessionSetupResult } from './agent-results';
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
  const configOptions = withLegacyModels(configOptionsOf(result.configOptions, problems), result['models']);
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

/**
 * Models offered only in the legacy `models` field become a model picker like any config option (category
 * `model`), unless the agent also offers a model option of its own, which wins.
 */
function withLegacyModels(options: ConfigOption[] | undefined, raw: unknown): ConfigOption[] | undefined {
  const models = legacyModels.safeParse(raw).data;
  if (!models || models.availableModels.length === 0 || options?.some((option) => option.category === 'model')) return options;
  const picker: ConfigOption = {
    id: LEGACY_MODEL_OPTION,
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: models.currentModelId,
    options: [
      ...models.availableModels.map((model) => ({
        value: model.modelId,
        name: model.name,
        ...(model.description ? { description: model.description } : {}),
      })),
      // The model in use may be one the list leaves out (Gemini CLI's own setting): it stays choosable.
      ...(models.availableModels.some((model) => model.modelId === models.currentModelId)
        ? []
        : [{ value: models.currentModelId, name: models.currentModelId }]),
    ],
  };
  return [...(options ?? []), picker];
}

export function configOptionsOf(raw: readonly unknown[] | null | undefined, problems: string[]): ConfigOption[] | undefined {
  return raw ? parseConfigOptions(raw, problems) : undefined;
}

/** A session the agent created (`session/new`, `session/fork`): its id and setup. */
export interface OpenedSession extends SessionSetup {
  readonly sessionId: string;
}
