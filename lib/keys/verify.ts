/**
 * Turns a presented secret into an active key or a precise refusal. Rows are cached in-process by hash;
 * the cache is dropped whenever the store reports that keys may have changed elsewhere (see
 * HotPathStore.keysVersion), and disabled/expired state is judged against the call's time on every call,
 * so disabling or expiring a key takes effect on the very next call, and a reissued key's old secret
 * (whose disabledAt is the end of its grace period) stops at that moment with no cache invalidation.
 */
import type { HotPathStore, KeyRow } from '../db/hot-path.ts';
import { describeFormatProblem, keyFormatProblem } from './format.ts';
import { hashKey } from './hash.ts';

/** Why a key that exists no longer works; such refusals are recorded per key (lib/usage/refused-calls.ts). */
export type StoppedReason = 'disabled' | 'expired' | 'replaced';

export type Verification =
  | { ok: true; key: KeyRow }
  | { ok: false; reason: 'malformed' | 'unknown'; message: string }
  | { ok: false; reason: StoppedReason; keyId: string; message: string };

/** Bound on cached rows (known and unknown hashes); cleared wholesale when exceeded. */
const CACHE_LIMIT = 50_000;

export function createKeyVerifier(store: Pick<HotPathStore, 'findKeyByHash' | 'keysVersion'>) {
  const cache = new Map<string, KeyRow | null>();
  let cachedVersion = store.keysVersion();

  async function lookup(keyHash: string, deadline: number | undefined): Promise<KeyRow | null> {
    const version = store.keysVersion();
    if (version !== cachedVersion) {
      cache.clear();
      cachedVersion = version;
    }
    const hit = cache.get(keyHash);
    if (hit !== undefined) return hit;
    const row = await store.findKeyByHash(keyHash, deadline);
    // A change that landed while we were reading must not be cached over.
    if (store.keysVersion() === cachedVersion) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(keyHash, row);
    }
    return row;
  }

  /** `deadline`: the call's (hot-path.ts), for the lookup when the row is not cached. */
  return async function verifyKey(secret: string, now: number, deadline?: number): Promise<Verification> {
    const problem = keyFormatProblem(secret);
    if (problem) {
      return { ok: false, reason: 'malformed', message: `API key not recognised: ${describeFormatProblem(problem)}.` };
    }
    const row = await lookup(hashKey(secret), deadline);
    if (!row) {
      return {
        ok: false,
        reason: 'unknown',
        message:
          'API key not recognised: no such key exists. Check that you copied the whole key, or create one in the portal.',
      };
    }
    if (row.disabledAt !== null && row.disabledAt <= now) {
      const at = new Date(row.disabledAt).toISOString();
      // Off because of its reissue; a secret disabled before or after it (a leak) reads as disabled.
      if (row.replacedById && row.disabledReason === 'reissued') {
        return {
          ok: false,
          reason: 'replaced',
          keyId: row.id,
          message: `API key replaced on ${at}: it was reissued, and only the new secret works. Use the new key (the portal shows it under the same name).`,
        };
      }
      const why = row.disabledReason ? ` (reason: ${row.disabledReason})` : '';
      return {
        ok: false,
        reason: 'disabled',
        keyId: row.id,
        message: `API key disabled on ${at}${why}. Reissue it or create a new key in the portal.`,
      };
    }
    if (row.expiresAt !== null && row.expiresAt <= now) {
      return {
        ok: false,
        reason: 'expired',
        keyId: row.id,
        message: `API key expired on ${new Date(row.expiresAt).toISOString()}. Create a new key in the portal.`,
      };
    }
    return { ok: true, key: row };
  };
}

export type KeyVerifier = ReturnType<typeof createKeyVerifier>;
