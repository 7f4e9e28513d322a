/**
 * The user cancelled an install (the notification's Cancel or the chat's): not a failure, nothing was installed.
 * A type of its own, so callers tell it from a failure by what it is, never by reading its message.
 */
export class InstallCancelled extends Error {
  constructor(options?: ErrorOptions) {
    super('Download cancelled.', options);
    this.name = 'InstallCancelled';
  }
}
