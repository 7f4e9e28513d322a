import * as assert from 'node:assert/strict';
import { initializeResult } from '../../../src/acp/schemas/agent-results';
import { capabilitiesOf } from '../../../src/acp/agent-capabilities';
import { NO_SESSION_SUPPORT } from '../../../src/acp/schemas/session-capabilities';

const init = (raw: object): ReturnType<typeof initializeResult.parse> => initializeResult.parse({ protocolVersion: 1, ...raw });
const mcpOf = (raw: object, version: 1 | 2): unknown => capabilitiesOf(init(raw), version).mcpCapabilities;

describe('what an agent can do, read once from initialize', () => {
  it('v1: agentCapabilities.mcpCapabilities {http, sse}; absent means stdio only', () => {
    assert.deepEqual(mcpOf({ agentCapabilities: { mcpCapabilities: { http: true, sse: false } } }, 1), { http: true, sse: false });
    assert.deepEqual(mcpOf({ agentCapabilities: {} }, 1), { http: false, sse: false });
    assert.deepEqual(mcpOf({}, 1), { http: false, sse: false });
  });

  it('v1: a malformed mcpCapabilities advertises nothing', () => {
    assert.deepEqual(mcpOf({ agentCapabilities: { mcpCapabilities: { http: 'yes', sse: 1 } } }, 1), { http: false, sse: false });
  });

  it('v2 draft: capabilities.session.mcp.http as an object present = supported', () => {
    assert.deepEqual(mcpOf({ protocolVersion: 2, capabilities: { session: { mcp: { stdio: {}, http: {} } } } }, 2), {
      http: true,
      sse: false,
    });
    assert.deepEqual(mcpOf({ protocolVersion: 2, capabilities: { session: { mcp: null } } }, 2), { http: false, sse: false });
  });

  it('v1: prompt capabilities, session methods, logout and steering, all from one answer', () => {
    const capabilities = capabilitiesOf(
      init({
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          sessionCapabilities: { list: {}, resume: {} },
          auth: { logout: {} },
        },
        _meta: { steering: { supported: true } },
      }),
      1,
    );
    assert.deepEqual(capabilities.promptCapabilities, { image: true, audio: false, embeddedContext: true });
    assert.deepEqual(capabilities.support, { ...NO_SESSION_SUPPORT, load: true, list: true, resume: true });
    assert.equal(capabilities.canLogOut, true);
    assert.equal(capabilities.steering, true);
  });

  it('v2 draft: prompt capabilities by presence; no v1 session methods and no steering are read', () => {
    const capabilities = capabilitiesOf(
      init({
        protocolVersion: 2,
        agentCapabilities: { loadSession: true },
        capabilities: { session: { prompt: { image: {}, audio: null, embeddedContext: false } } },
        _meta: { steering: { supported: true } },
      }),
      2,
    );
    assert.deepEqual(capabilities.promptCapabilities, { image: true, audio: false, embeddedContext: false });
    assert.deepEqual(capabilities.support, NO_SESSION_SUPPORT);
    assert.equal(capabilities.steering, false);
  });
});
