/**
 * Failed-attempt counting behind one interface, so the sign-in throttle, the leak-report limit and the
 * /mcp key-authentication throttle need not know where the counts live: in this process (the embedded
 * mode, AttemptWindow) or in Redis (the shared mode, redis-attempt-counter.ts), where every instance
 * sees every other instance's attempts.
 */
import { config } from '../config.ts';
import { processShared } from '../process-shared.ts';
import { getRedis, sharedMode, whenReady } from '../redis/clients.ts';
import { AttemptWindow } from './attempt-window.ts';
import { createRedisAttemptCounter } from './redis-attempt-counter.ts';

export interface Attempt {
  /** Whether the attempt was allowed (and so recorded). */
  taken: boolean;
  /** Milliseconds until the next attempt may be made: 0 when it may be made at once. */
  retryAfterMs: number;
}

export interface AttemptCounter {
  readonly limit: number;
  readonly windowMs: number;
  /** Milliseconds until `key` may try again (0: now); records nothing. */
  retryAfterMs(key: string): Promise<number>;
  /** Records an attempt whatever the count (a failure that already happened). */
  record(key: string): Promise<void>;
  /** Records an attempt if `key` may try now; when it may not, nothing is recorded. */
  take(key: string): Promise<Attempt>;
  clear(key: string): Promise<void>;
}

/** The embedded mode's counter: this process's memory. */
export function memoryAttemptCounter(window: AttemptWindow): AttemptCounter {
  return {
    limit: window.limit,
    windowMs: window.windowMs,
    retryAfterMs: async (key) => window.retryAfterMs(key),
    record: async (key) => window.record(key),
    async take(key) {
      const now = Date.now();
      const wait = window.take(key, now);
      return wait > 0
        ? { taken: false, retryAfterMs: wait }
        : { taken: true, retryAfterMs: window.retryAfterMs(key, now) };
    },
    clear: async (key) => window.clear(key),
  };
}

/**
 * The process-wide counter named `name` (one of each: server.ts and Next's bundle load separate copies
 * of this module, and both must count into the same one), in Redis in the shared mode.
 */
export function attemptCounter(name: string, limit: number, windowMs: number): AttemptCounter {
  const counters = processShared('attemptCounters', () => new Map<string, AttemptCounter>());
  let counter = counters.get(name);
  if (!counter) {
    const memory = memoryAttemptCounter(new AttemptWindow(limit, windowMs));
    counter = sharedMode()
      ? createRedisAttemptCounter({
          redis: getRedis(),
          prefix: config().redisKeyPrefix,
          name,
          limit,
          windowMs,
          fallback: memory,
          whenReady,
        })
      : memory;
    counters.set(name, counter);
  }
  return counter;
}
