/**
 * Failed API-key authentications on /mcp, throttled per client address: once `limit` different keys
 * have failed from an address within the window, it is locked until the oldest of those failures
 * leaves the window. Failures are malformed, unknown, disabled and expired keys; a missing key or a
 * malformed header is not counted, since it tests no key (and a client that forgot its header should
 * not lock its address). Each failed key counts once per window: a client retrying the one key it has
 * (a typo, or a key support disabled) is not guessing, and must not lock out the address it shares
 * with its owner's other keys; a scanner needs a new key for every guess.
 *
 * While an address is locked, every key presented from it is refused with the same 401 answer, valid or
 * not, so a scanner trying a list of leaked keys learns nothing more. The exception keeps valid users
 * working: keys that succeeded from that address within the last hour, remembered per address in this
 * process, go on working. The success path touches only this memory (two map reads and a write); only
 * failures reach the counter, which lives in Redis in the shared mode.
 *
 * Each instance learns of a lock from its own failures (the counter answers with the lock's end); a
 * valid key never seen from a locked address can therefore pass on an instance that has not yet had a
 * failure from that address since the lock began, the price of keeping Redis off the success path.
 */
import type { AttemptCounter } from './attempt-counter.ts';

/** How long a key that succeeded from an address stays exempt from that address's lock. */
const REMEMBER_MS = 60 * 60_000;
/** Bounds on the memory: addresses tracked, keys remembered per address (the oldest go first). */
const MAX_ADDRESSES = 100_000;
const MAX_KEYS_PER_ADDRESS = 64;

export class KeyAuthThrottle {
  /** Address → when its lock ends (epoch ms), as this instance last learnt it. */
  private readonly lockedUntil = new Map<string, number>();
  /** Address → key id → its latest success from there (epoch ms). */
  private readonly keysSeen = new Map<string, Map<string, number>>();
  /** Address → digest of a key that failed from there → when that failure leaves the window (epoch ms). */
  private readonly recentFailures = new Map<string, Map<string, number>>();

  constructor(readonly failures: AttemptCounter) {}

  /**
   * The success path: whether a verified key may be used from `address` (unknown: always). A key that
   * may is remembered for the address.
   */
  admits(address: string | undefined, keyId: string, now: number): boolean {
    if (address === undefined) return true;
    if (this.lockedFor(address, now) > 0) {
      const seen = this.keysSeen.get(address)?.get(keyId);
      if (seen === undefined || seen <= now - REMEMBER_MS) return false;
    }
    this.remember(address, keyId, now);
    return true;
  }

  /** Milliseconds the address stays locked, as far as this instance knows (0: not locked). */
  lockedFor(address: string | undefined, now: number): number {
    if (address === undefined) return 0;
    const until = this.lockedUntil.get(address);
    if (until === undefined) return 0;
    if (until > now) return until - now;
    this.lockedUntil.delete(address);
    return 0;
  }

  /**
   * Counts a failed authentication from `address`. Answers how long the address was already locked
   * (0: it was not, and the failure is answered as it is). A failure from an address this instance
   * knows to be locked is not counted again: the lock cannot end sooner than it learnt.
   */
  async failed(address: string | undefined, keyDigest: string, now: number): Promise<number> {
    if (address === undefined) return 0;
    const known = this.lockedFor(address, now);
    if (known > 0) return known;
    if (this.failedRecently(address, keyDigest, now)) return 0;
    const attempt = await this.failures.take(address);
    if (attempt.retryAfterMs > 0) this.lock(address, now + attempt.retryAfterMs);
    return attempt.taken ? 0 : attempt.retryAfterMs;
  }

  /** Whether this key already failed from this address within the window; if not, notes that it has now. */
  private failedRecently(address: string, keyDigest: string, now: number): boolean {
    let failures = this.recentFailures.get(address);
    if (!failures) {
      if (this.recentFailures.size >= MAX_ADDRESSES) dropOldest(this.recentFailures);
      failures = new Map();
      this.recentFailures.set(address, failures);
    }
    const until = failures.get(keyDigest);
    if (until !== undefined && until > now) return true;
    // More distinct keys than the limit cannot matter: the address is locked by then.
    if (failures.size > this.failures.limit) {
      for (const [digest, ends] of failures) if (ends <= now) failures.delete(digest);
      if (failures.size > this.failures.limit) dropOldest(failures);
    }
    failures.set(keyDigest, now + this.failures.windowMs);
    return false;
  }

  private lock(address: string, until: number): void {
    if (!this.lockedUntil.has(address) && this.lockedUntil.size >= MAX_ADDRESSES) dropOldest(this.lockedUntil);
    this.lockedUntil.set(address, until);
  }

  private remember(address: string, keyId: string, now: number): void {
    let keys = this.keysSeen.get(address);
    if (!keys) {
      if (this.keysSeen.size >= MAX_ADDRESSES) dropOldest(this.keysSeen);
      keys = new Map();
      this.keysSeen.set(address, keys);
    } else if (keys.size >= MAX_KEYS_PER_ADDRESS && !keys.has(keyId)) {
      dropOldest(keys);
    }
    keys.set(keyId, now);
  }
}

function dropOldest(map: Map<string, unknown>): void {
  map.delete(map.keys().next().value!);
}
