/**
 * The mock Chat Completions API the OpenCode and Qwen Code suites run against: a call that offers tools takes
 * the test's next scripted step, streamed as the API streams it; side calls never take a step.
 */
import * as assert from 'node:assert/strict';
import { startMockOpenAi, type MockOpenAi } from '../../fixtures/mock-openai/server';
import { FALLBACK_TEXT } from '../../fixtures/mock-llm/script';

const tools = [{ type: 'function', function: { name: 'write', parameters: { type: 'object', properties: {} } } }];

function post(mock: MockOpenAi, body: object): Promise<Response> {
  return fetch(`${mock.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock-model', ...body }),
  });
}

/** The `data:` payloads of an event stream, JSON-parsed except the final `[DONE]`. */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return [...text.matchAll(/^data: (.*)$/gm)].map((match) =>
    match[1] === '[DONE]' ? '[DONE]' : (JSON.parse(match[1] ?? 'null') as unknown),
  );
}

type Chunk = {
  choices: {
    delta: { content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments?: string } }[] };
    finish_reason: string | null;
  }[];
};

describe('mock OpenAI Chat Completions API', () => {
  let mock: MockOpenAi;
  beforeEach(async () => {
    mock = await startMockOpenAi();
  });
  afterEach(() => mock.close());

  it('streams a scripted tool call as deltas: the id and name first, then the arguments, finish_reason tool_calls', async () => {
    mock.script.push({ type: 'tool_call', name: 'write', arguments: { filePath: '/w/a.txt', content: 'hi' }, text: 'Writing.' });
    const chunks = (await events(
      await post(mock, { stream: true, stream_options: { include_usage: true }, tools, messages: [{ role: 'user', content: 'go' }] }),
    )) as (Chunk | string)[];
    assert.equal(chunks.at(-1), '[DONE]');
    const deltas = chunks.flatMap((chunk) => (typeof chunk === 'string' ? [] : chunk.choices));
    assert.equal(deltas.map((choice) => choice.delta.content ?? '').join(''), 'Writing.');
    const calls = deltas.flatMap((choice) => choice.delta.tool_calls ?? []);
    assert.deepEqual(calls[0], { index: 0, id: 'call_mock_1', type: 'function', function: { name: 'write', arguments: '' } });
    assert.deepEqual(JSON.parse(calls.map((call) => call.function.arguments ?? '').join('')), { filePath: '/w/a.txt', content: 'hi' });
    assert.equal(deltas.at(-1)?.finish_reason, 'tool_calls');
    assert.ok(
      chunks.some((chunk) => typeof chunk === 'object' && 'usage' in chunk),
      'usage when include_usage asks for it',
    );
  });

  it('keeps the script for the agent loop: a call without tools gets the fallback (or {} for JSON) and takes no step', async () => {
    mock.script.push({ type: 'text', text: 'scripted' });
    const side = (await (await post(mock, { messages: [{ role: 'user', content: 'title?' }] })).json()) as {
      choices: { message: { content: string } }[];
    };
    assert.equal(side.choices[0]?.message.content, FALLBACK_TEXT);
    const json = (await (await post(mock, { response_format: { type: 'json_object' }, messages: [] })).json()) as {
      choices: { message: { content: string } }[];
    };
    assert.equal(json.choices[0]?.message.content, '{}');
    assert.equal(mock.script.pending, 1);
    const turn = (await (
      await post(mock, {
        tools,
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'earlier' },
        ],
      })
    ).json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    assert.equal(turn.choices[0]?.message.content, 'scripted');
    assert.equal(turn.choices[0]?.finish_reason, 'stop');
    assert.equal(mock.requests.length, 3, 'every request is recorded');
    assert.deepEqual(
      mock.turnRequests().map((request) => request.messages.length),
      [2],
      'turnRequests lists only the loop calls, parsed',
    );
  });

  it('holds a "hang" step open after its text until the mock closes', async () => {
    mock.script.push({ type: 'hang', text: 'partial' });
    const response = await post(mock, { stream: true, tools, messages: [] });
    const reader = response.body?.getReader();
    let seen = '';
    while (!seen.includes('partial')) {
      const next = await reader?.read();
      if (!next || next.done) break;
      seen += new TextDecoder().decode(next.value);
    }
    assert.match(seen, /partial/);
    assert.doesNotMatch(seen, /\[DONE\]/);
    await mock.close();
    await assert.rejects(async () => {
      for (;;) if ((await reader?.read())?.done) throw new Error('ended');
    });
  });
});
