/**
 * Every tool answers within a deadline: a language service that never answers (an extension stuck indexing, a
 * provider that loops) turns into a clear error for the agent instead of a tool call that hangs its turn.
 */
import { asError } from '../shared/error-text';

export class ToolDeadlineExceeded extends Error {
  constructor(what: string, ms: number) {
    super(
      `${what} did not answer within ${(ms / 1000).toFixed(1)} s (the editor's language services may still be loading); try again later`,
    );
  }
}

/** `work` gets a signal that aborts at the deadline, so what it waits on can stop too. */
export function withDeadline<T>(what: string, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      controller.abort();
      reject(new ToolDeadlineExceeded(what, ms));
    }, ms);
    work(controller.signal).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(asError(error));
      },
    );
  });
}
