import * as assert from 'node:assert/strict';
import { defaultUiState, parseUiState, toggled } from '../../../webview/host/ui-state';

describe('webview UI state', () => {
  it('restores a stored draft, expansions and scroll position', () => {
    const stored = {
      draft: 'half-written',
      attachments: [
        { kind: 'file', uri: 'file:///w/a.ts', label: 'a.ts', range: { startLine: 2, endLine: 4 } },
        { kind: 'image', label: 'shot.png', mimeType: 'image/png', data: 'iVBO' },
      ],
      expandedThoughts: ['msg:thought:1'],
      expandedRaw: [],
      scroll: { atBottom: false, anchorKey: 'tool:1', anchorOffset: 12 },
    };
    assert.deepEqual(parseUiState(stored), stored);
  });

  it('falls back to defaults for anything missing or malformed', () => {
    assert.deepEqual(parseUiState(undefined), defaultUiState());
    assert.deepEqual(parseUiState({ draft: 3, expandedThoughts: ['a', 2], scroll: 'x' }), { ...defaultUiState(), expandedThoughts: ['a'] });
  });

  it('keeps only well-formed attachments from an earlier version', () => {
    const stored = {
      attachments: [
        { kind: 'file', uri: 'file:///w/a.ts', label: 'a.ts', range: { startLine: 4, endLine: 2 } },
        { kind: 'file', label: 'no uri' },
        { kind: 'video', label: 'v', mimeType: 'video/mp4', data: '' },
        'junk',
      ],
    };
    assert.deepEqual(
      parseUiState(stored).attachments,
      [{ kind: 'file', uri: 'file:///w/a.ts', label: 'a.ts' }],
      'a backwards range is dropped, the file kept',
    );
  });

  it('toggles keys in and out of a persisted set', () => {
    assert.deepEqual(toggled(['a'], 'b'), ['a', 'b']);
    assert.deepEqual(toggled(['a', 'b'], 'a'), ['b']);
  });
});

describe('dismissed notices in the webview UI state', () => {
  it('keeps the keys of dismissed banners across a reload, and only strings', () => {
    assert.deepEqual(parseUiState({ dismissedBanners: ['s1#3', 4, 's1#5'] }).dismissedBanners, ['s1#3', 's1#5']);
    assert.equal(parseUiState({}).dismissedBanners, undefined);
  });
});
