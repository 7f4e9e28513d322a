/**
 * How an install the user asked for ended, for the command to answer: installed, cancelled by the user (they may
 * still want it: Retry), or failed (with the reason and the fixes). Cancellation is known by its type.
 */
import { errorMessage } from '../../shared/error-text';
import type { InstalledAgent } from './installed-manifest';
import { InstallCancelled } from './install-cancelled';

export type InstallOutcome =
  | { readonly kind: 'installed'; readonly installed: InstalledAgent }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly message: string };

export async function attemptInstall(run: () => PromiseLike<InstalledAgent>): Promise<InstallOutcome> {
  try {
    return { kind: 'installed', installed: await run() };
  } catch (error) {
    return error instanceof InstallCancelled ? { kind: 'cancelled' } : { kind: 'failed', message: errorMessage(error) };
  }
}
