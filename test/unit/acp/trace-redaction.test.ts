import * as assert from 'node:assert/strict';
import { TraceRedaction } from '../../../src/acp/trace-redaction';

describe('trace redaction', () => {
  it('masks a secret where it stands as a JSON string, however the trace indents it', () => {
    const redaction = new TraceRedaction();
    redaction.add(['Bearer s3cret', 'a"quoted\\value']);
    const params = {
      mcpServers: [{ headers: [{ name: 'Authorization', value: 'Bearer s3cret' }], env: [{ name: 'Q', value: 'a"quoted\\value' }] }],
    };
    for (const text of [JSON.stringify(params), JSON.stringify(params, null, 4)]) {
      const redacted = redaction.redact(`Sending request 'session/new - (1)'.\nParams: ${text}`);
      assert.ok(!redacted.includes('s3cret') && !redacted.includes('quoted'), redacted);
      assert.equal(redacted.split('"***"').length - 1, 2);
      assert.ok(redacted.includes('"Authorization"'), 'names stay readable');
    }
  });

  it('a short value is masked only as a whole string, not inside other text', () => {
    const redaction = new TraceRedaction();
    redaction.add(['1', '']);
    assert.equal(redaction.redact('{"id":1,"value":"1","text":"10 items"}'), '{"id":1,"value":"***","text":"10 items"}');
  });

  it('a long secret is masked inside other text too (an agent quoting it back)', () => {
    const redaction = new TraceRedaction();
    redaction.add(['tok-9f3e1d', 'Bearer tok-9f3e1d']);
    assert.equal(
      redaction.redact('{"value":"Bearer tok-9f3e1d","text":"I got \\"tok-9f3e1d\\" from you"}'),
      '{"value":"***","text":"I got \\"***\\" from you"}',
    );
  });
});
