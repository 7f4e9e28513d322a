import { errorMessage } from '../../shared/error-text';

/** An error as one line for the user; fetch puts the real reason (ECONNREFUSED, ENOTFOUND) in `cause`. */
export const errorText = (error: unknown): string =>
  error instanceof Error && error.cause instanceof Error ? `${error.message} (${error.cause.message})` : errorMessage(error);
