/** A fresh history root per test, removed after it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export function tempRootPerTest(): () => string {
  let root: string | undefined;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'acp-history-'));
  });
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });
  return () => {
    if (!root) throw new Error('the history root exists only during a test');
    return root;
  };
}

/** States as stored: JSON has no `undefined` keys, so a loaded state is compared in its JSON form. */
export function asStored(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
