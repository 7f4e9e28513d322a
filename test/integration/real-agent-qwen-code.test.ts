/** Qwen Code (`@qwen-code/qwen-code`, `qwen --acp`, Node 22+) against the mock Chat Completions API. */
import { startMockOpenAi } from '../fixtures/mock-openai/server';
import { qwenCodeLaunch } from '../support/real-agents';
import { describeRealAgent } from './real-agent-suite';

describeRealAgent({
  name: 'Qwen Code (mock API)',
  minNodeMajor: 22,
  startMock: startMockOpenAi,
  launch: qwenCodeLaunch,
  read: (file) => ({ type: 'tool_call', name: 'read_file', arguments: { file_path: file } }),
  write: (file, content) => ({ type: 'tool_call', name: 'write_file', arguments: { file_path: file, content } }),
  edit: (file, oldText, newText) => ({
    type: 'tool_call',
    name: 'edit',
    arguments: { file_path: file, old_string: oldText, new_string: newText },
  }),
  pickers: ['config:mode', 'config:model'],
  modes: { asks: 'default', editsWithoutAsking: 'auto-edit' },
  vendorRequests: ['craft/drainMidTurnQueue'],
});
