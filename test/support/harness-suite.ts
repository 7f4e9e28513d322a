/**
 * Mocha hooks for a suite of host-path tests: before each test a fresh real directory to be the workspace root
 * (a suite's own beforeEach, registered after, can fill it), after it every harness the test started stopped (no agent outlives its test) and the
 * directory removed.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createHostHarness, type HostHarness } from './host-harness';

export class HarnessSuite {
  private currentRoot: string | undefined;
  private started: HostHarness[] = [];

  constructor(prefix: string) {
    beforeEach(() => {
      this.currentRoot = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
    });
    afterEach(async () => {
      const started = this.started;
      this.started = [];
      for (const harness of started) await harness.controller.stop();
      if (this.currentRoot) rmSync(this.currentRoot, { recursive: true, force: true });
      this.currentRoot = undefined;
    });
  }

  /** The current test's workspace root. */
  get root(): string {
    if (!this.currentRoot) throw new Error('HarnessSuite.root is only there during a test');
    return this.currentRoot;
  }

  start(options?: Parameters<typeof createHostHarness>[1]): HostHarness {
    const harness = createHostHarness(this.root, options);
    this.started.push(harness);
    return harness;
  }
}
