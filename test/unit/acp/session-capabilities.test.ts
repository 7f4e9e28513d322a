/** Which session lifecycle methods an `initialize` answer advertises, read leniently key by key. */
import * as assert from 'node:assert/strict';
import { parseListedSessions } from '../../../src/acp/schemas/listed-sessions';
import { NO_SESSION_SUPPORT, sessionSupportOf } from '../../../src/acp/schemas/session-capabilities';

describe('session lifecycle capabilities', () => {
  it('`{}` means supported, omitted or null means not; `title` is set_title; loadSession is its own flag', () => {
    assert.deepEqual(
      sessionSupportOf({
        loadSession: true,
        sessionCapabilities: { list: {}, resume: { _meta: { x: 1 } }, fork: null, title: {}, additionalDirectories: {} },
      }),
      { load: true, list: true, resume: true, fork: false, close: false, delete: false, setTitle: true, additionalDirectories: true },
    );
  });

  it('a malformed entry costs its own method only, and nothing at all is none', () => {
    assert.deepEqual(
      sessionSupportOf({ loadSession: 'yes', sessionCapabilities: { list: 'yes', close: {}, delete: true, resume: false } }),
      { ...NO_SESSION_SUPPORT, close: true, delete: true },
    );
    assert.deepEqual(sessionSupportOf(undefined), NO_SESSION_SUPPORT);
    assert.deepEqual(sessionSupportOf({ sessionCapabilities: [] }), NO_SESSION_SUPPORT);
  });

  it('a listed session keeps its id and cwd; malformed optional fields are dropped, not the entry', () => {
    const problems: string[] = [];
    const sessions = parseListedSessions(
      [
        { sessionId: 's1', cwd: '/w', title: 'One', updatedAt: '2026-11-23T10:00:00Z', _meta: {} },
        { sessionId: 's2', cwd: '/w', title: 7, updatedAt: null },
        { sessionId: '', cwd: '/w' },
        'nonsense',
      ],
      problems,
    );
    assert.deepEqual(sessions, [
      { sessionId: 's1', cwd: '/w', title: 'One', updatedAt: '2026-11-23T10:00:00Z' },
      { sessionId: 's2', cwd: '/w' },
    ]);
    assert.equal(problems.length, 2);
  });
});
