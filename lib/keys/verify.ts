/**
 * Turns a presented secret into an active key or a precise refusal. Rows are cached in-process by hash;
 * the cache is dropped whenever the store reports that keys may have changed elsewhere (see
 * HotPathStore.keysVersion), and disabled/expired state is judged against the call's time on every call,
 * so disabling or expiring a key takes effect on the very next call, and a reissued key's old secret
 * (whose disabledAt is the end of its grace period) stops at that moment with no cache invalidation.
 * A refusal says how the key stopped and when (lib/keys/stop.ts), never the reason someone typed.
 */
import type { HotPathStore, KeyRow } from '../db/hot-path.ts';
import { describeFormatProblem, keyFormatProblem } from './format.ts';
import { hashKey } from './hash.ts';
import { type StoppedReason, stopCategory, stoppedKeyRefusal, tokenEndCategory } from './stop.ts';

export type { StoppedReason } from './stop.ts';

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
    // Off first, then expired: a key both disabled and past its expiry was stopped by someone's decision.
    // The key before the secret: a stopped key stops every secret it has, and says why.
    const stoppedAt =
      row.disabledAt !== null && row.disabledAt <= now
        ? { category: stopCategory(row.stopKind), at: row.disabledAt }
        : row.expiresAt !== null && row.expiresAt <= now
          ? { category: 'expired' as const, at: row.expiresAt }
          : row.secretEndedAt !== null && row.secretEndedAt <= now
            ? { category: tokenEndCategory(row.secretEndedHow), at: row.secretEndedAt }
            : row.secretExpiresAt !== null && row.secretExpiresAt <= now
              ? { category: 'token_expired' as const, at: row.secretExpiresAt }
              : null;
    if (stoppedAt) {
      const { counted, message } = stoppedKeyRefusal(stoppedAt.category, stoppedAt.at);
      return { ok: false, reason: counted, keyId: row.id, message };
    }
    return { ok: true, key: row };
  };
}
