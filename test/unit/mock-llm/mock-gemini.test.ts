/**
 * The mock Gemini API the Gemini CLI suite runs against: `streamGenerateContent?alt=sse` with text and
 * functionCall parts from the test's script, `countTokens`, and side calls that never take a step.
 */
import * as assert from 'node:assert/strict';
import { startMockGemini, type MockGemini } from '../../fixtures/mock-gemini/server';
import { FALLBACK_TEXT } from '../../fixtures/mock-llm/script';

const tools = [{ functionDeclarations: [{ name: 'write_file' }] }];

function post(mock: MockGemini, method: string, body: object): Promise<Response> {
  return fetch(`${mock.url}/v1beta/models/gemini-2.5-flash:${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

type Generated = {
  candidates: { content: { parts: { text?: string; functionCall?: { name: string; args: unknown } }[] }; finishReason?: string }[];
};

describe('mock Gemini API', () => {
  let mock: MockGemini;
  beforeEach(async () => {
    mock = await startMockGemini();
  });
  afterEach(() => mock.close());

  it('streams a scripted function call as SSE: the text part, then the functionCall with its args, the last event finished', async () => {
    mock.script.push({ type: 'tool_call', name: 'write_file', arguments: { file_path: '/w/a.txt', content: 'hi' }, text: 'Writing.' });
    const text = await (
      await post(mock, 'streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: 'go' }] }], tools })
    ).text();
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1] ?? 'null') as Generated);
    const parts = events.flatMap((event) => event.candidates[0]?.content.parts ?? []);
    assert.deepEqual(parts[0], { text: 'Writing.' });
    assert.equal(parts[1]?.functionCall?.name, 'write_file');
    assert.deepEqual(parts[1]?.functionCall?.args, { file_path: '/w/a.txt', content: 'hi' });
    assert.equal(events.at(-1)?.candidates[0]?.finishReason, 'STOP');
    assert.equal(events[0]?.candidates[0]?.finishReason, undefined);
  });

  it('answers side calls (no function declarations) without taking a step, counts tokens, and records every request', async () => {
    mock.script.push({ type: 'text', text: 'scripted' });
    const side = (await (
      await post(mock, 'generateContent', {
        contents: [{ parts: [{ text: 'route?' }] }],
        generationConfig: { responseMimeType: 'application/json' },
      })
    ).json()) as Generated;
    assert.equal(side.candidates[0]?.content.parts[0]?.text, '{}');
    const plain = (await (await post(mock, 'generateContent', { contents: [{ parts: [{ text: 'hi' }] }] })).json()) as Generated;
    assert.equal(plain.candidates[0]?.content.parts[0]?.text, FALLBACK_TEXT);
    assert.deepEqual(await (await post(mock, 'countTokens', { contents: [] })).json(), { totalTokens: 4 });
    const turn = (await (
      await post(mock, 'generateContent', {
        contents: [
          { role: 'user', parts: [{ text: 'a' }] },
          { role: 'model', parts: [{ text: 'b' }] },
        ],
        tools,
      })
    ).json()) as Generated;
    assert.equal(turn.candidates[0]?.content.parts[0]?.text, 'scripted');
    assert.equal(mock.requests.length, 4);
    assert.deepEqual(
      mock.turnRequests().map((request) => request.contents.length),
      [2],
    );
    assert.equal((await fetch(`${mock.url}/v1beta/other`)).status, 404);
  });
});
