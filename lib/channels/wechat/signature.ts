/**
 * The platform's request signatures: SHA-1 hex of the parts sorted as strings and joined. `signature`
 * covers (token, timestamp, nonce); in safe mode `msg_signature` adds the Encrypt text, so it covers the
 * body too. Timestamps are Unix seconds; a request more than FRESH_MS from our clock is refused, which
 * bounds how long a captured signature is worth replaying.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const FRESH_MS = 5 * 60_000;

export function wechatSignature(...parts: string[]): string {
  return createHash('sha1')
    .update([...parts].sort().join(''))
    .digest('hex');
}

/** Whether `given` is the signature of `parts`, compared in constant time (a missing one never is). */
export function signatureMatches(given: string | null | undefined, ...parts: string[]): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(wechatSignature(...parts));
  const actual = Buffer.from(given.toLowerCase());
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True for a timestamp (Unix seconds, digits only) within FRESH_MS of `now`. */
export function isFresh(timestamp: string | null | undefined, now = Date.now()): boolean {
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(Number(timestamp) * 1000 - now) <= FRESH_MS;
}
