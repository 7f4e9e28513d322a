/**
 * A secret an agent presents (the process's, or its conversation's): `Authorization: Bearer <token>` on HTTP, the
 * first line on the local pipe. Compared in constant time, so a local process probing the port learns nothing from
 * how fast it is refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token of an `Authorization` header value; undefined unless it is exactly `Bearer <token>`. */
export function bearerOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header);
  return match?.[1];
}
