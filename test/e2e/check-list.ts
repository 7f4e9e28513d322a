/**
 * The checks an end-to-end suite has passed, and how it reports the one that stopped it. A suite runs its checks in
 * order and stops at the first failure, so the failure belongs to the check after the last one passed.
 */
export interface CheckList {
  /** Marks a check as passed, with the words a person reads in the log. */
  check(name: string): void;
  /** The closing line of a suite whose every check passed. */
  allPassed(): void;
  /** Reports the failure and ends the process with exit code 1. */
  failed(error: unknown): never;
}

export function checkList(): CheckList {
  const passed: string[] = [];
  return {
    check(name) {
      passed.push(name);
      console.log(`  ✔ ${name}`);
    },
    allPassed() {
      console.log(`${passed.length} passed, 0 failed`);
    },
    failed(error) {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      // Playwright's timeout errors carry no "Error" in their text, so the summary CI shows (scripts/test-all.sh lists
      // the ✘ lines) would not say which wait ran out: the ✘ line names it, and the check it was on the way to.
      const message = error instanceof Error ? error.message : String(error);
      const last = passed.at(-1);
      const after = last === undefined ? 'before the first check' : `after "${last}"`;
      console.log(`  ✘ ${after}: ${message.split('\n')[0]}`);
      console.log(`${passed.length} passed, 1 failed`);
      process.exit(1);
    },
  };
}
