/**
 * The mock Anthropic API the real-agent integration test runs Claude Code against: its replies are derived from
 * the request as documented, and both wire shapes parse as the Messages API sends them.
 */
import * as assert from 'node:assert/strict';
import { replyTo, type MessagesRequest } from '../../fixtures/mock-anthropic/reply';
import { startMockAnthropic } from '../../fixtures/mock-anthropic/server';

const request = (content: MessagesRequest['messages'][number]['content'], extra: Partial<MessagesRequest> = {}): MessagesRequest => ({
  model: 'm',
  messages: [{ role: 'user', content }],
  ...extra,
});

describe('mock Anthropic API', () => {
  it('echoes the user text, skipping the system reminders Claude Code puts before it', () => {
    const reply = replyTo(
      request([
        { type: 'text', text: '<system-reminder>\nnoise\n</system-reminder>\n' },
        { type: 'text', text: 'hi there' },
      ]),
    );
    assert.deepEqual(reply, { content: [{ type: 'text', text: 'Mock Claude heard: hi there' }], stopReason: 'end_turn' });
  });

  it('calls Write for "write <path> with <content>", then reports the tool result', () => {
    const call = replyTo(request('write /tmp/a.txt with two\nlines'));
    assert.equal(call.stopReason, 'tool_use');
    assert.deepEqual(call.content[1], {
      type: 'tool_use',
      id: 'toolu_mock_write',
      name: 'Write',
      input: { file_path: '/tmp/a.txt', content: 'two\nlines' },
    });
    const after = replyTo(request([{ type: 'tool_result', content: [{ type: 'text', text: 'File created' }] }]));
    assert.deepEqual(after.content, [{ type: 'text', text: 'Mock Claude saw the tool result: File created' }]);
  });

  it('fills the required fields of a structured-output schema', () => {
    const reply = replyTo(request('title this', { output_config: { format: { type: 'json_schema', schema: { required: ['title'] } } } }));
    assert.deepEqual(reply.content, [{ type: 'text', text: '{"title":"Mock title"}' }]);
  });

  it('serves the reply as an event stream or as JSON, and records each request', async () => {
    const mock = await startMockAnthropic();
    try {
      const post = (stream: boolean): Promise<Response> =>
        fetch(`${mock.url}/v1/messages?beta=true`, {
          method: 'POST',
          body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'ping' }] }),
        });
      const events = [...(await (await post(true)).text()).matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
      assert.deepEqual(events, [
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      const json: unknown = await (await post(false)).json();
      assert.deepEqual(typeof json === 'object' && json !== null && 'content' in json && json.content, [
        { type: 'text', text: 'Mock Claude heard: ping' },
      ]);
      assert.equal((await fetch(`${mock.url}/v1/other`)).status, 404);
      assert.deepEqual(
        mock.requests.map((r) => `${r.method} ${r.url}`),
        ['POST /v1/messages?beta=true', 'POST /v1/messages?beta=true', 'GET /v1/other'],
      );
    } finally {
      await mock.close();
    }
  });
});
