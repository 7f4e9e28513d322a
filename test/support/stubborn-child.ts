/**
 * The worst child a real agent launcher can leave behind, as Node source for `node -e`: it ignores SIGTERM and
 * SIGHUP, and runs with its stdio ignored, so no end of input reaches it either. Only SIGKILL (or its group's) ends it.
 */
export const STUBBORN_CHILD_TAG = 'acp-stubborn-child';

export const STUBBORN_CHILD = `/* ${STUBBORN_CHILD_TAG} */ process.on('SIGTERM', () => {}); process.on('SIGHUP', () => {}); setInterval(() => {}, 1000);`;
