/**
 * The session's pickers, as the chat header and the palette commands offer them. Config options supersede modes
 * when the agent has both (the spec: an agent that has config options exposes its modes as one of category
 * `mode`), so a client never shows two mode pickers that could disagree. A model picker made from an agent's
 * legacy `models` field is not one of the agent's config options: its modes still show beside it.
 */
import { LEGACY_MODEL_OPTION, type ConfigOption, type ConfigOptionValue, type TranscriptState } from './model';

export interface SessionPicker {
  /** `modes`: the v1 mode list, set with `session/set_mode`; `config`: a config option, set with `session/set_config_option`. */
  readonly source: 'modes' | 'config';
  /** The config option's id (`mode` for the mode list). */
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly category?: string;
  readonly type: 'select' | 'boolean';
  readonly current: string | boolean;
  readonly choices: readonly ConfigOptionValue[];
}

export function sessionPickers(state: Pick<TranscriptState, 'modes' | 'configOptions'>): readonly SessionPicker[] {
  const options = state.configOptions.map(configPicker);
  if (state.configOptions.some((option) => option.id !== LEGACY_MODEL_OPTION)) return options;
  const modes = state.modes;
  if (!modes || modes.available.length === 0) return options;
  const choices = modes.available.map((mode) => ({
    value: mode.id,
    name: mode.name,
    ...(mode.description ? { description: mode.description } : {}),
  }));
  return [{ source: 'modes', id: 'mode', name: 'Mode', type: 'select', current: modes.current, choices }, ...options];
}

/** The picker that sets the agent's mode: the mode config option if there is one, else the mode list. */
export function modePicker(state: Pick<TranscriptState, 'modes' | 'configOptions'>): SessionPicker | undefined {
  return sessionPickers(state).find((picker) => picker.source === 'modes' || picker.category === 'mode');
}

/** The name shown for a picker's current value. */
export function currentChoiceName(picker: SessionPicker): string {
  if (picker.type === 'boolean') return picker.current === true ? 'On' : 'Off';
  return picker.choices.find((choice) => choice.value === picker.current)?.name ?? String(picker.current);
}

function configPicker(option: ConfigOption): SessionPicker {
  return {
    source: 'config',
    id: option.id,
    name: option.name,
    ...(option.description ? { description: option.description } : {}),
    ...(option.category ? { category: option.category } : {}),
    type: option.type,
    current: option.currentValue,
    choices: option.options,
  };
}
