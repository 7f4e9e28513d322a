import * as assert from 'node:assert/strict';
import { InstallActivity } from '../../../../src/agents/registry/install-activity';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the registry install under way', () => {
  it('is current from begin to end, and listeners hear the start, the bytes (coalesced) and the end', async () => {
    const activity = new InstallActivity();
    let changes = 0;
    activity.onDidChange(() => changes++);
    const handle = activity.begin('Fixture', '1.0.0');
    assert.deepEqual(activity.current, { agentName: 'Fixture', version: '1.0.0', receivedBytes: 0 });
    assert.equal(changes, 1, 'the start is heard at once');
    // A download reports every chunk: a thousand reports at once are heard as one change.
    for (let bytes = 1; bytes <= 1000; bytes++) handle.report(bytes, 1000);
    await sleep(300);
    assert.equal(changes, 2);
    assert.deepEqual(activity.current, { agentName: 'Fixture', version: '1.0.0', receivedBytes: 1000, totalBytes: 1000 });
    handle.end();
    assert.equal(activity.current, undefined);
    assert.equal(changes, 3, 'the end is heard at once');
    activity.dispose();
  });

  it("the chat's Cancel and the notification's Cancel both abort the download's signal", () => {
    const activity = new InstallActivity();
    const fromChat = activity.begin('A', '1');
    activity.cancel();
    assert.equal(fromChat.signal.aborted, true);
    fromChat.end();
    const notification = new AbortController();
    const fromNotification = activity.begin('B', '1', notification.signal);
    notification.abort();
    assert.equal(fromNotification.signal.aborted, true);
    fromNotification.end();
    activity.dispose();
  });

  it('an older install ending or reporting late does not clear or overwrite a newer one', () => {
    const activity = new InstallActivity();
    const first = activity.begin('A', '1');
    const second = activity.begin('B', '2');
    first.report(10, 10);
    first.end();
    assert.equal(activity.current?.agentName, 'B');
    assert.equal(activity.current?.receivedBytes, 0);
    second.end();
    assert.equal(activity.current, undefined);
    activity.dispose();
  });
});
