/**
 * Models offered only in the legacy `models` field of a session setup answer (Gemini CLI 0.61, ACP's unstable
 * model selection) become a model picker beside the agent's modes; an agent's own model option wins.
 */
import * as assert from 'node:assert/strict';
import { sessionSetupOf } from '../../../src/acp/schemas/session-setup';
import { LEGACY_MODEL_OPTION, type TranscriptState } from '../../../src/shared/model';
import { sessionPickers } from '../../../src/shared/session-pickers';

const geminiAnswer = {
  sessionId: 's',
  modes: {
    currentModeId: 'default',
    availableModes: [
      { id: 'default', name: 'Default' },
      { id: 'autoEdit', name: 'Auto Edit' },
    ],
  },
  models: {
    currentModelId: 'gemini-2.5-flash',
    availableModels: [
      { modelId: 'auto', name: 'Auto', description: 'Picks for you' },
      { modelId: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro' },
      { modelId: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash' },
    ],
  },
};

const pickersOf = (setup: ReturnType<typeof sessionSetupOf>): string[] =>
  sessionPickers({ modes: setup.modes, configOptions: setup.configOptions ?? [] } satisfies Pick<
    TranscriptState,
    'modes' | 'configOptions'
  >).map((picker) => `${picker.source}:${picker.id}=${String(picker.current)}`);

describe('legacy models field', () => {
  it('becomes a model picker beside the modes, with the current model and every choice', () => {
    const setup = sessionSetupOf(geminiAnswer, []);
    assert.deepEqual(pickersOf(setup), ['modes:mode=default', `config:${LEGACY_MODEL_OPTION}=gemini-2.5-flash`]);
    const picker = setup.configOptions?.[0];
    assert.equal(picker?.category, 'model');
    assert.deepEqual(
      picker?.options.map((option) => option.value),
      ['auto', 'gemini-2.5-pro', 'gemini-2.5-flash'],
    );
  });

  it('keeps the model in use choosable when the list leaves it out', () => {
    const setup = sessionSetupOf({ ...geminiAnswer, models: { ...geminiAnswer.models, currentModelId: 'my-model' } }, []);
    assert.deepEqual(
      setup.configOptions?.[0]?.options.map((option) => option.value),
      ['auto', 'gemini-2.5-pro', 'gemini-2.5-flash', 'my-model'],
    );
  });

  it('is left out when the agent offers a model config option of its own, and a malformed field is ignored', () => {
    const own = {
      ...geminiAnswer,
      configOptions: [
        { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'm1', options: [{ value: 'm1', name: 'M1' }] },
      ],
    };
    assert.deepEqual(pickersOf(sessionSetupOf(own, [])), ['config:model=m1']);
    assert.deepEqual(pickersOf(sessionSetupOf({ ...geminiAnswer, models: { availableModels: 'x' } }, [])), ['modes:mode=default']);
  });
});
