/** OpenCode (`opencode-ai`, its native binary, `opencode acp`) against the mock Chat Completions API. */
import { startMockOpenAi } from '../fixtures/mock-openai/server';
import { openCodeLaunch } from '../support/real-agents';
import { describeRealAgent } from './real-agent-suite';

describeRealAgent({
  name: 'OpenCode (mock API)',
  minNodeMajor: 0,
  startMock: startMockOpenAi,
  launch: openCodeLaunch,
  read: (file) => ({ type: 'tool_call', name: 'read', arguments: { filePath: file } }),
  write: (file, content) => ({ type: 'tool_call', name: 'write', arguments: { filePath: file, content } }),
  edit: (file, oldText, newText) => ({
    type: 'tool_call',
    name: 'edit',
    arguments: { filePath: file, oldString: oldText, newString: newText },
  }),
  pickers: ['config:model', 'config:mode'],
  // "direct" is a primary agent of the test's config that keeps OpenCode's default: edits without asking, on disk.
  modes: { asks: 'build', editsWithoutAsking: 'direct' },
  writesOnDiskItself: true,
  otherModel: { value: 'mock/mock-model-2', requestModel: 'mock-model-2' },
});
