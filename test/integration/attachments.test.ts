/**
 * Prompt attachments in a real VS Code: what the agent receives for an attached file depends on what it
 * advertised (embedded resource with the editor's unsaved text, or a link), media it did not advertise is never
 * sent, and `@` completion lists the workspace's files as VS Code's search sees them. The chips themselves are
 * driven in the browser by the end-to-end test.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Attachment } from '../../src/shared/attachments';
import { WorkspaceFileIndex } from '../../src/editor/workspace-file-index';
import { echoedPrompt, sleep, turnEnded, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

describe('prompt attachments in VS Code', function () {
  this.timeout(60_000);
  const helloUri = (): vscode.Uri => vscode.Uri.file(path.join(workspaceRoot(), 'src', 'hello.ts'));
  const hello = (): Attachment => ({ kind: 'file', uri: helloUri().toString(), label: 'src/hello.ts' });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('embeds an attached file as the editor shows it, unsaved edits included', async () => {
    const editor = await vscode.window.showTextDocument(helloUri());
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// not saved yet\n'));
    const client = await useScriptedAgent('echo');
    assert.deepEqual(await client.sendPrompt('explain @src/hello.ts', [hello()]), { accepted: true });
    const state = await waitFor(client, turnEnded);
    assert.deepEqual(echoedPrompt(state), [
      { type: 'text', text: 'explain @src/hello.ts' },
      { type: 'resource', resource: { uri: helloUri().toString(), text: editor.document.getText() } },
    ]);
  });

  it('links the file instead when the agent does not take embedded context, and never sends unadvertised media', async () => {
    const client = await useScriptedAgent('echo', { ACP_PROMPT_CAPABILITIES: '' });
    const image: Attachment = { kind: 'image', label: 'shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    assert.deepEqual(await client.sendPrompt('look', [hello(), image]), {
      accepted: false,
      reason: 'Scripted does not accept images, so shot.png was not attached.',
    });
    assert.deepEqual(await client.sendPrompt('look', [hello()]), { accepted: true });
    const state = await waitFor(client, turnEnded);
    assert.deepEqual(echoedPrompt(state), [
      { type: 'text', text: 'look' },
      { type: 'resource_link', uri: helloUri().toString(), name: 'src/hello.ts' },
    ]);
    const userMessages = state.pages.flat().filter((entry) => entry.kind === 'message' && entry.role === 'user');
    assert.equal(userMessages.length, 1, 'the refused prompt never reached the transcript');
  });

  it('completes @ from the workspace files VS Code search sees, and follows files being created', async () => {
    const index = new WorkspaceFileIndex();
    const created = vscode.Uri.file(path.join(workspaceRoot(), 'src', 'greeting-later.ts'));
    const hidden = vscode.Uri.file(path.join(workspaceRoot(), 'node_modules', 'dep', 'greeting-dep.ts'));
    try {
      await vscode.workspace.fs.writeFile(hidden, new TextEncoder().encode('export {};\n'));
      const first = await index.search('hel');
      assert.equal(first[0]?.label, 'src/hello.ts');
      assert.equal(first[0]?.uri, helloUri().toString());
      await vscode.workspace.fs.writeFile(created, new TextEncoder().encode('export {};\n'));
      let found: string[] = [];
      for (let attempt = 0; attempt < 50 && !found.includes('src/greeting-later.ts'); attempt++) {
        await sleep(200);
        found = (await index.search('greeting')).map((match) => match.label);
      }
      assert.deepEqual(found, ['src/greeting-later.ts'], 'the new file is found; node_modules (search.exclude) is not');
    } finally {
      index.dispose();
      await vscode.workspace.fs.delete(created).then(undefined, () => undefined);
      await vscode.workspace.fs
        .delete(vscode.Uri.file(path.join(workspaceRoot(), 'node_modules')), { recursive: true })
        .then(undefined, () => undefined);
    }
  });
});
