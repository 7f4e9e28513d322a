/**
 * The extension's exports, which every installed extension can read: a read-only view of the chat and sending a
 * prompt as if typed. The controls that act in the user's name (a permission's answer, an agent's question answered,
 * a conversation deleted, the agents stopped) are in the exports only in test mode (src/api.ts).
 */
import * as assert from 'node:assert/strict';
import type { AcpClientApi } from '../../../src/api';
import { acpClientApi, type ApiParts } from '../../../src/extension-api';

/** The parts are only wired into closures here: nothing is called, so none needs to be real. */
function parts(testMode: boolean): ApiParts {
  const unused = {} as never;
  return {
    testMode,
    chats: unused,
    commands: unused,
    view: unused,
    shown: unused,
    restore: unused,
    agentSessions: unused,
    approvalDialog: unused,
  };
}

const PUBLIC: readonly (keyof AcpClientApi)[] = [
  'chatViewReady',
  'conversations',
  'draftOf',
  'onDidChangeTranscript',
  'sendPrompt',
  'showConversation',
  'shownConversation',
  'transcript',
  'transcriptOf',
];

describe('the exports', () => {
  it('of an installed extension are the read-only view and sendPrompt, no control that acts in the user’s name', () => {
    const exports = acpClientApi(parts(false));
    assert.deepEqual(Object.keys(exports).sort(), [...PUBLIC].sort());
    for (const control of ['postFromChat', 'answerElicitation', 'removeConversation', 'stopAgents', 'answerApprovalsForTests'])
      assert.equal(control in exports, false, control);
  });

  it('in test mode add the controls its integration tests drive the chat with', () => {
    const exports = acpClientApi(parts(true));
    const controls = Object.keys(exports).filter((key) => !(PUBLIC as readonly string[]).includes(key));
    assert.deepEqual(controls.sort(), [
      'agentSessions',
      'answerApprovalsForTests',
      'answerElicitation',
      'flushHistory',
      'postFromChat',
      'removeConversation',
      'sendPromptTo',
      'stopAgents',
    ]);
    for (const key of PUBLIC) assert.equal(typeof Reflect.get(exports, key), 'function', key);
  });
});
