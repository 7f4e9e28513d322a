/** What "Add Agent…" shows for each registry agent. */
import * as assert from 'node:assert/strict';
import type { InstalledAgent } from '../../../../src/agents/registry/installed-manifest';
import { agentListing, installState } from '../../../../src/agents/registry/registry-listing';
import { parseRegistryIndex, type RegistryAgent } from '../../../../src/agents/registry/registry-schema';

const agent = (fields: Record<string, unknown> = {}): RegistryAgent => {
  const parsed = parseRegistryIndex({
    agents: [
      {
        id: 'gem',
        name: 'Gemini CLI',
        version: '2.0.0',
        description: "Google's CLI",
        license: 'Apache-2.0',
        distribution: { npx: { package: 'gem' } },
        ...fields,
      },
    ],
  }).agents[0];
  assert.ok(parsed);
  return parsed;
};
const installed = (version: string, pinned = false): InstalledAgent => ({
  id: 'gem',
  name: 'Gemini CLI',
  version,
  pinned,
  kind: 'npx',
  command: 'npx',
  args: [],
  env: {},
});

describe('registry listing', () => {
  it('shows version, license and whether it is installed or behind', () => {
    assert.deepEqual(agentListing(agent(), undefined), { label: 'Gemini CLI', description: 'v2.0.0 · Apache-2.0', detail: "Google's CLI" });
    assert.equal(agentListing(agent(), installed('2.0.0')).description, 'v2.0.0 · Apache-2.0 · installed');
    assert.equal(agentListing(agent(), installed('1.9.0')).description, 'v2.0.0 · Apache-2.0 · update available: 1.9.0 → 2.0.0');
    assert.equal(agentListing(agent(), installed('1.9.0', true)).description, 'v2.0.0 · Apache-2.0 · pinned at 1.9.0 (registry has 2.0.0)');
    assert.deepEqual(installState(agent(), installed('1.9.0', true)), { kind: 'pinned', installed: '1.9.0', latest: '2.0.0' });
  });

  it('neutralizes bidi overrides, invisible and control characters in registry text, and caps its length', () => {
    const listing = agentListing(
      agent({ name: 'Safe\u202eexe.txt\u200b', description: `line one\nline two\u0007 ${'x'.repeat(400)}`, license: undefined }),
      undefined,
    );
    assert.equal(listing.label, 'Safe<U+202E>exe.txt<U+200B>');
    assert.equal(listing.description, 'v2.0.0');
    assert.ok(listing.detail.startsWith('line one line two<U+0007> x'), listing.detail);
    assert.equal(listing.detail.length, 300);
    assert.ok(listing.detail.endsWith('…'));
  });
});
