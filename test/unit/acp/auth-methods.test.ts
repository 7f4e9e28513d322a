/** `authMethods` and `agentCapabilities.auth.logout` from `initialize`, read the lenient way the spec allows. */
import * as assert from 'node:assert/strict';
import { canLogOut, parseAuthMethods } from '../../../src/acp/schemas/auth-methods';

describe('auth methods from initialize', () => {
  it('a method without type is an agent method; a terminal one keeps its args and env; null description, args and env mean none', () => {
    const problems: string[] = [];
    const methods = parseAuthMethods(
      [
        { id: 'oauth', name: 'Log in with a browser', description: null },
        { id: 'tui', name: 'Log in in a terminal', type: 'terminal', args: ['--login'], env: { MODE: 'tui' }, _meta: { x: 1 } },
        { id: 'bare', name: 'Bare terminal', type: 'terminal', args: null, env: null },
      ],
      problems,
    );
    assert.deepEqual(methods, [
      { type: 'agent', id: 'oauth', name: 'Log in with a browser' },
      { type: 'terminal', id: 'tui', name: 'Log in in a terminal', args: ['--login'], env: { MODE: 'tui' } },
      { type: 'terminal', id: 'bare', name: 'Bare terminal', args: [], env: {} },
    ]);
    assert.deepEqual(problems, []);
  });

  it('a method of an unknown type or a malformed one is left out, the others kept', () => {
    const problems: string[] = [];
    const methods = parseAuthMethods(
      [{ id: 'key', name: 'API key', type: 'env_var', vars: [] }, { name: 'no id' }, 'junk', { id: 'ok', name: 'Fine', type: 'agent' }],
      problems,
    );
    assert.deepEqual(methods, [{ type: 'agent', id: 'ok', name: 'Fine' }]);
    assert.equal(problems.length, 3);
  });

  it('logout is offered only when agentCapabilities.auth.logout is present', () => {
    assert.equal(canLogOut({ auth: { logout: {} } }), true);
    assert.equal(canLogOut({ auth: { logout: null } }), false);
    assert.equal(canLogOut({ auth: {} }), false);
    assert.equal(canLogOut(undefined), false);
    assert.equal(canLogOut({ auth: 'yes' }), false);
  });
});
