import * as assert from 'node:assert/strict';
import { initializeResult } from '../../../src/acp/schemas/agent-results';
import { mcpCapabilitiesOf } from '../../../src/session/mcp-capabilities';

const init = (raw: object): ReturnType<typeof initializeResult.parse> => initializeResult.parse({ protocolVersion: 1, ...raw });

describe('the MCP transports an agent advertises', () => {
  it('v1: agentCapabilities.mcpCapabilities {http, sse}; absent means stdio only', () => {
    assert.deepEqual(mcpCapabilitiesOf(init({ agentCapabilities: { mcpCapabilities: { http: true, sse: false } } }), 1), {
      http: true,
      sse: false,
    });
    assert.deepEqual(mcpCapabilitiesOf(init({ agentCapabilities: {} }), 1), { http: false, sse: false });
    assert.deepEqual(mcpCapabilitiesOf(init({}), 1), { http: false, sse: false });
  });

  it('v1: a malformed mcpCapabilities advertises nothing', () => {
    assert.deepEqual(mcpCapabilitiesOf(init({ agentCapabilities: { mcpCapabilities: { http: 'yes', sse: 1 } } }), 1), {
      http: false,
      sse: false,
    });
  });

  it('v2 draft: capabilities.session.mcp.http as an object present = supported', () => {
    assert.deepEqual(mcpCapabilitiesOf(init({ protocolVersion: 2, capabilities: { session: { mcp: { stdio: {}, http: {} } } } }), 2), {
      http: true,
      sse: false,
    });
    assert.deepEqual(mcpCapabilitiesOf(init({ protocolVersion: 2, capabilities: { session: { mcp: null } } }), 2), {
      http: false,
      sse: false,
    });
  });
});
