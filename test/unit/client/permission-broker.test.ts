import * as assert from 'node:assert/strict';
import { CancellationTokenSource } from 'vscode-jsonrpc';
import { PermissionBroker } from '../../../src/client/permission-broker';
import type { CancellationSignal } from '../../../src/acp/rpc-boundary';
import type { PermissionPrompt, PermissionRequestView } from '../../../src/client/ports';
import type { PermissionOption } from '../../../src/shared/model';

const options: PermissionOption[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

/** A dialog the test answers by hand; records whether it was closed by the broker. */
class ManualPrompt implements PermissionPrompt {
  answer: ((optionId: string | undefined) => void) | undefined;
  closedByBroker = false;
  shown: PermissionRequestView[] = [];
  ask(request: PermissionRequestView, token: CancellationSignal): Promise<string | undefined> {
    this.shown.push(request);
    return new Promise((resolve) => {
      this.answer = resolve;
      token.onCancellationRequested(() => {
        this.closedByBroker = true;
        resolve(undefined);
      });
    });
  }
}

const ask = (requestId: string) => ({ requestId, agentName: 'Agent', toolTitle: 'Edit file', paths: [], options });

describe('permission broker', () => {
  it('sends the dialog answer and closes nothing else', async () => {
    const prompt = new ManualPrompt();
    const broker = new PermissionBroker(prompt);
    const outcome = broker.request(ask('1'), new CancellationTokenSource().token);
    await Promise.resolve();
    prompt.answer?.('reject');
    assert.deepEqual(await outcome, { outcome: 'selected', optionId: 'reject' });
    assert.deepEqual(prompt.shown[0]?.options, options);
    assert.equal(broker.pendingCount, 0);
  });

  it('takes the card answer first and closes the dialog', async () => {
    const prompt = new ManualPrompt();
    const broker = new PermissionBroker(prompt);
    const outcome = broker.request(ask('1'), new CancellationTokenSource().token);
    await Promise.resolve();
    assert.equal(broker.answer('1', 'allow'), true);
    assert.deepEqual(await outcome, { outcome: 'selected', optionId: 'allow' });
    assert.equal(prompt.closedByBroker, true);
    assert.equal(broker.answer('1', 'reject'), false, 'a second answer is not sent');
  });

  it('keeps waiting when the dialog is closed without a choice', async () => {
    const prompt = new ManualPrompt();
    const broker = new PermissionBroker(prompt);
    let settled = false;
    const outcome = broker.request(ask('1'), new CancellationTokenSource().token).then((o) => {
      settled = true;
      return o;
    });
    await Promise.resolve();
    prompt.answer?.(undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(settled, false);
    assert.equal(broker.answer('1', 'allow'), true);
    assert.deepEqual(await outcome, { outcome: 'selected', optionId: 'allow' });
  });

  it('rejects an option the agent did not offer', async () => {
    const broker = new PermissionBroker(new ManualPrompt());
    void broker.request(ask('1'), new CancellationTokenSource().token);
    assert.equal(broker.answer('1', 'made-up'), false);
    assert.equal(broker.pendingCount, 1);
  });

  it('answers every pending request cancelled on cancel, closing the dialogs', async () => {
    const prompt = new ManualPrompt();
    const broker = new PermissionBroker(prompt);
    const first = broker.request(ask('1'), new CancellationTokenSource().token);
    const second = broker.request(ask('2'), new CancellationTokenSource().token);
    await Promise.resolve();
    assert.deepEqual(broker.cancelAll().sort(), ['1', '2']);
    assert.deepEqual(await first, { outcome: 'cancelled' });
    assert.deepEqual(await second, { outcome: 'cancelled' });
    assert.equal(prompt.closedByBroker, true);
  });

  it('answers cancelled when the agent withdraws its request', async () => {
    const prompt = new ManualPrompt();
    const broker = new PermissionBroker(prompt);
    const agentSide = new CancellationTokenSource();
    const outcome = broker.request(ask('1'), agentSide.token);
    agentSide.cancel();
    assert.deepEqual(await outcome, { outcome: 'cancelled' });
  });
});
