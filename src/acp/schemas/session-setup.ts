/** Turns `session/new` (and set_config_option) results into the model's modes and config options. */
import type { ConfigOption, SessionModes } from '../../shared/model';
import type { NewSessionResult } from './agent-results';
import { parseConfigOptions } from './session-update-fields';

export function modesOf(result: NewSessionResult): SessionModes | undefined {
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
