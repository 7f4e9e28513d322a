/** The default of a switch over one of our own unions: adding a member without handling it fails `tsc`. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
