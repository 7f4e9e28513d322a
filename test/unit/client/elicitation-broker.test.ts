/** The broker's own rules: what leaves VS Code on Open, and that every question is answered exactly once. */
import * as assert from 'node:assert/strict';
import { CancellationToken, CancellationTokenSource } from 'vscode-jsonrpc';
import { ElicitationBroker } from '../../../src/client/elicitation-broker';
import { formModelFrom } from '../../../src/shared/elicitation-form';
import { urlRequest } from '../../../src/shared/elicitation-model';
import { RecordingElicitationPorts } from '../../support/host-harness';

const urlAsk = (requestId: string, url: string) => ({
  requestId,
  agentName: 'Agent',
  message: 'Sign in',
  request: { mode: 'url' as const, url, host: '', elicitationId: requestId },
});

describe('elicitation broker', () => {
  it('opens only http(s) URLs, and only on the answer', async () => {
    for (const url of ['file:///etc/passwd', 'command:workbench.action.terminal.new', 'vscode://x/y', 'javascript:alert(1)', 'not a url']) {
      const ports = new RecordingElicitationPorts();
      const broker = new ElicitationBroker(ports);
      void broker.request(urlAsk('r1', url), CancellationToken.None);
      assert.deepEqual(await broker.answer('r1', 'accept'), { ok: false, reason: 'not_openable' }, url);
      assert.deepEqual(ports.opened, [], url);
      assert.equal(broker.pendingCount, 1, 'still waiting for decline or cancel');
    }
    const ports = new RecordingElicitationPorts();
    const broker = new ElicitationBroker(ports);
    const answer = broker.request(urlAsk('r1', 'http://localhost:8080/cb'), CancellationToken.None);
    assert.deepEqual(ports.opened, []);
    assert.deepEqual(await broker.answer('r1', 'accept'), { ok: true });
    assert.deepEqual(await answer, { action: 'accept' });
    assert.deepEqual(ports.opened, ['http://localhost:8080/cb']);
  });

  it('attack: a URL read one way on the card and another when opened, a look-alike host, a user name before the host', async () => {
    // Backslash: the card's parser saw github.com, VS Code's Uri.parse opened evil.example.
    assert.deepEqual(urlRequest('https://github.com\\@evil.example/login', 'e1'), {
      mode: 'url',
      url: 'https://github.com/@evil.example/login',
      host: 'github.com',
      elicitationId: 'e1',
    });
    // A Cyrillic і: the card emphasised nothing (the host was punycode, the text was not); now both are punycode.
    const lookAlike = urlRequest('https://g\u0456thub.com/login', 'e2');
    assert.equal(lookAlike.url, `https://${lookAlike.host}/login`);
    assert.match(lookAlike.host, /^xn--/);
    const ports = new RecordingElicitationPorts();
    const broker = new ElicitationBroker(ports);
    const userinfo = urlRequest('https://github.com@evil.example/login', 'e3');
    void broker.request({ ...urlAsk('r1', userinfo.url), request: userinfo }, CancellationToken.None);
    assert.deepEqual(await broker.answer('r1', 'accept'), { ok: false, reason: 'not_openable' });
    assert.deepEqual(ports.opened, [], 'a URL with a user name before the host is never opened');
  });

  it('answers once: the agent withdrawing, cancel-all and a late user answer do not answer again', async () => {
    const ports = new RecordingElicitationPorts();
    const broker = new ElicitationBroker(ports);
    const withdraw = new CancellationTokenSource();
    const form = { mode: 'form' as const, form: formModelFrom({ properties: { ok: { type: 'boolean' } }, required: ['ok'] }) };
    const answer = broker.request({ requestId: 'r1', agentName: 'Agent', message: 'OK?', request: form }, withdraw.token);
    assert.equal(ports.announced.length, 1);
    withdraw.cancel();
    assert.deepEqual(await answer, { action: 'cancel' });
    assert.equal(ports.announced[0]?.withdrawn, true);
    assert.deepEqual(broker.cancelAll(), []);
    assert.deepEqual(await broker.answer('r1', 'accept', { ok: true }), { ok: false, reason: 'not_pending' });
  });
});
