/**
 * The race the read attacks run: a worker thread swaps a workspace folder for a link to a folder outside and back,
 * by atomic renames, as fast as it can, while the test reads a file inside that folder.
 */
import { Worker } from 'node:worker_threads';

const FOLDER_SWAPPER = `
const { renameSync, symlinkSync, rmSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { folder, outside, stop } = workerData;
const flag = new Int32Array(stop);
let swaps = 0;
while (Atomics.load(flag, 0) === 0) {
  rmSync(folder + '.link', { force: true });
  symlinkSync(outside, folder + '.link');
  renameSync(folder, folder + '.real');
  renameSync(folder + '.link', folder);
  rmSync(folder);
  renameSync(folder + '.real', folder);
  swaps += 1;
}
Atomics.store(flag, 1, swaps);
`;

/** Runs `during` while `folder` is swapped for a link to `outside` and back; resolves with the number of swaps. */
export async function whileFolderSwapped(folder: string, outside: string, during: () => Promise<void>): Promise<number> {
  const stop = new SharedArrayBuffer(8);
  const worker = new Worker(FOLDER_SWAPPER, { eval: true, workerData: { folder, outside, stop } });
  const exited = new Promise<void>((resolve, reject) => {
    worker.once('exit', () => resolve());
    worker.once('error', reject);
  });
  try {
    await during();
  } finally {
    Atomics.store(new Int32Array(stop), 0, 1);
    await exited;
  }
  return new Int32Array(stop)[1] ?? 0;
}
