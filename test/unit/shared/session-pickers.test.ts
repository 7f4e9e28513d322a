/** Which pickers the chat offers: config options supersede modes; the mode picker is found in either. */
import * as assert from 'node:assert/strict';
import type { ConfigOption, TranscriptState } from '../../../src/shared/model';
import { currentChoiceName, modePicker, sessionPickers } from '../../../src/shared/session-pickers';

type Controls = Pick<TranscriptState, 'modes' | 'configOptions'>;
const modes: Controls['modes'] = {
  current: 'ask',
  available: [
    { id: 'ask', name: 'Ask' },
    { id: 'code', name: 'Code', description: 'Edits freely' },
  ],
};
const model: ConfigOption = {
  id: 'model',
  name: 'Model',
  category: 'model',
  type: 'select',
  currentValue: 'deep',
  options: [
    { value: 'fast', name: 'Fast' },
    { value: 'deep', name: 'Deep' },
  ],
};
const modeOption: ConfigOption = {
  id: 'agent-mode',
  name: 'Mode',
  category: 'mode',
  type: 'select',
  currentValue: 'code',
  options: [
    { value: 'ask', name: 'Ask' },
    { value: 'code', name: 'Code' },
  ],
};
const verbose: ConfigOption = { id: 'verbose', name: 'Verbose', type: 'boolean', currentValue: false, options: [] };

describe('session pickers', () => {
  it('offers the mode list when the agent has only modes', () => {
    const pickers = sessionPickers({ modes, configOptions: [] });
    assert.deepEqual(pickers, [
      {
        source: 'modes',
        id: 'mode',
        name: 'Mode',
        type: 'select',
        current: 'ask',
        choices: [
          { value: 'ask', name: 'Ask' },
          { value: 'code', name: 'Code', description: 'Edits freely' },
        ],
      },
    ]);
    assert.equal(modePicker({ modes, configOptions: [] })?.source, 'modes');
  });

  it('offers only the config options when the agent has both, the mode among them by its category', () => {
    const both = { modes, configOptions: [modeOption, model, verbose] };
    assert.deepEqual(
      sessionPickers(both).map((picker) => [picker.source, picker.id]),
      [
        ['config', 'agent-mode'],
        ['config', 'model'],
        ['config', 'verbose'],
      ],
    );
    assert.equal(modePicker(both)?.id, 'agent-mode');
  });

  it('has no mode picker when the config options have no mode category, even if modes were listed', () => {
    assert.equal(modePicker({ modes, configOptions: [model] }), undefined);
    assert.deepEqual(sessionPickers({ modes: undefined, configOptions: [] }), []);
    assert.deepEqual(sessionPickers({ modes: { current: 'x', available: [] }, configOptions: [] }), []);
  });

  it('names the current choice, On/Off for a toggle, the raw value when it is not listed', () => {
    const [modelPicker, verbosePicker] = sessionPickers({ modes: undefined, configOptions: [model, verbose] });
    assert.equal(modelPicker && currentChoiceName(modelPicker), 'Deep');
    assert.equal(verbosePicker && currentChoiceName(verbosePicker), 'Off');
    const odd = sessionPickers({ modes: undefined, configOptions: [{ ...model, currentValue: 'gone' }] })[0];
    assert.equal(odd && currentChoiceName(odd), 'gone');
  });
});
