/** Gemini CLI (`@google/gemini-cli`, `gemini --acp`) against the mock Gemini API through its gateway setting. */
import { startMockGemini } from '../fixtures/mock-gemini/server';
import { geminiCliLaunch } from '../support/real-agents';
import { describeRealAgent } from './real-agent-suite';

describeRealAgent({
  name: 'Gemini CLI (mock API)',
  minNodeMajor: 20,
  startMock: startMockGemini,
  launch: geminiCliLaunch,
  read: (file) => ({ type: 'tool_call', name: 'read_file', arguments: { file_path: file } }),
  write: (file, content) => ({ type: 'tool_call', name: 'write_file', arguments: { file_path: file, content } }),
  edit: (file, oldText, newText) => ({
    type: 'tool_call',
    name: 'replace',
    arguments: { file_path: file, old_string: oldText, new_string: newText, instruction: 'Apply the edit' },
  }),
  // Its models come only in the legacy `models` field (session/set_model): shown as a model picker of our own.
  pickers: ['modes:mode', 'config:_acpClient.legacyModel'],
  otherModel: { value: 'gemini-2.5-pro', requestModel: 'gemini-2.5-pro' },
  modes: { asks: 'default', editsWithoutAsking: 'autoEdit' },
  asksForUnannouncedToolCalls: true,
});
