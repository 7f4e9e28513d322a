import * as assert from 'node:assert/strict';
import { EntryIndex } from '../../../webview/transcript/entry-index';
import { estimateHeight } from '../../../webview/transcript/height-estimate';
import { agentMessage, stateWith } from './support';

describe('transcript entry index (virtualization geometry)', () => {
  const entries = Array.from({ length: 600 }, (_, i) => agentMessage(String(i), 'x'.repeat(i % 7)));

  it('lays out estimated heights and finds the entry at a scroll offset', () => {
    const index = new EntryIndex();
    index.sync(stateWith(entries));
    assert.equal(index.count, 600);
    const each = estimateHeight(entries[0]!);
    assert.equal(index.totalHeight, each * 600);
    assert.equal(index.indexAt(0), 0);
    assert.equal(index.indexAt(each * 10 + 1), 10);
    assert.equal(index.indexAt(1e9), 599);
    assert.equal(index.top(10), each * 10);
  });

  it('uses measured heights, remembered by key across state changes', () => {
    const index = new EntryIndex();
    index.sync(stateWith(entries));
    const before = index.totalHeight;
    assert.equal(index.setMeasured(5, 500), true);
    assert.equal(index.setMeasured(5, 500), false, 'same height: nothing to redo');
    assert.equal(index.totalHeight, before - estimateHeight(entries[5]!) + 500);
    index.sync(stateWith([...entries]));
    assert.equal(index.top(6) - index.top(5), 500);
  });

  it('follows appends, removals and replaced entries page by page', () => {
    const index = new EntryIndex();
    index.sync(stateWith(entries));
    const grown = [...entries, agentMessage('new', 'hello')];
    assert.equal(index.sync(stateWith(grown)), true);
    assert.equal(index.entry(600).key, 'msg:agent:new');
    const removed = grown.filter((_, i) => i !== 3);
    index.sync(stateWith(removed));
    assert.equal(index.count, 600);
    assert.equal(index.entry(3).key, 'msg:agent:4');
    assert.equal(index.entry(599).key, 'msg:agent:new');
    assert.equal(index.indexOfKey('msg:agent:new', 0), 599);
    assert.equal(index.indexOfKey('msg:agent:3', 3), undefined);
  });

  it('reports no change when handed the same pages', () => {
    const index = new EntryIndex();
    const state = stateWith(entries);
    index.sync(state);
    assert.equal(index.sync(state), false);
  });
});
