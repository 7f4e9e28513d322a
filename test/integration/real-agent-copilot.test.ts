/** GitHub Copilot CLI (`@github/copilot`, its native binary, `copilot --acp`) in its own-provider mode against the mock Chat Completions API. */
import { startMockOpenAi } from '../fixtures/mock-openai/server';
import { copilotLaunch, warmCopilotCache } from '../support/real-agents';
import { describeRealAgent } from './real-agent-suite';

// Its mode ids are URLs (the spec's session-modes page with a fragment): the picker must show their names.
const MODE = 'https://agentclientprotocol.com/protocol/session-modes#';

describeRealAgent({
  name: 'GitHub Copilot CLI (mock API)',
  minNodeMajor: 0,
  prepare: warmCopilotCache,
  startMock: startMockOpenAi,
  launch: copilotLaunch,
  read: (file) => ({ type: 'tool_call', name: 'view', arguments: { path: file } }),
  write: (file, content) => ({ type: 'tool_call', name: 'create', arguments: { path: file, file_text: content } }),
  edit: (file, oldText, newText) => ({ type: 'tool_call', name: 'edit', arguments: { path: file, old_str: oldText, new_str: newText } }),
  shell: (command) => ({ type: 'tool_call', name: 'bash', arguments: { command, description: 'Echo a line' } }),
  pickers: ['config:mode', 'config:allow_all'],
  // Autopilot turns allow-all on for its turns (and keeps prompting the model a few times after the work is done).
  modes: { asks: `${MODE}agent`, editsWithoutAsking: `${MODE}autopilot` },
  modeNames: { asks: 'Agent', editsWithoutAsking: 'Autopilot' },
  writesOnDiskItself: true,
  signsOut: true,
});
