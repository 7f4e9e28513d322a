/** Patch semantics of the protocol's upserts: an omitted (undefined) field keeps what was there, null clears it. */
export function patched<T>(previous: T | undefined, update: T | null | undefined): T | undefined {
  return update === undefined ? previous : (update ?? undefined);
}
