/**
 * Counts attempts per key (an email, a client address) in a sliding window and says how long a key
 * must wait once it has used up its allowance. In-process: the embedded mode's counter, and the shared
 * mode's while Redis is unreachable (attempt-counter.ts).
 */
export class AttemptWindow {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Keys tracked at most; past it the oldest are forgotten, so a flood of addresses cannot fill memory. */
    private readonly maxKeys = 100_000,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = this.attempts.get(key);
    if (!list) return [];
    const fresh = list.filter((at) => at > now - this.windowMs);
    if (fresh.length) this.attempts.set(key, fresh);
    else this.attempts.delete(key);
    return fresh;
  }

  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfterMs(key: string, now = Date.now()): number {
    const fresh = this.recent(key, now);
    if (fresh.length < this.limit) return 0;
    return fresh[fresh.length - this.limit] + this.windowMs - now;
  }

  record(key: string, now = Date.now()): void {
    const fresh = this.recent(key, now);
    if (!fresh.length && this.attempts.size >= this.maxKeys) {
      this.attempts.delete(this.attempts.keys().next().value!);
    }
    this.attempts.set(key, [...fresh, now]);
  }

  /** Records an attempt if allowed; returns the wait in ms when it is not (nothing recorded then). */
  take(key: string, now = Date.now()): number {
    const wait = this.retryAfterMs(key, now);
    if (wait === 0) this.record(key, now);
    return wait;
  }

  clear(key: string): void {
    this.attempts.delete(key);
  }
}
