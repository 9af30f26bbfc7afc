/**
 * The in-process limiter for a single instance (the embedded default). Node runs one call's admission
 * from start to finish without interruption once the key's day counter is loaded, so check-and-consume
 * is atomic: N simultaneous calls with Q left admit exactly min(N, Q).
 *
 * Per-second limit: a sliding window. A key with limit R is admitted at most R times in any 1000 ms,
 * which is what "1 request per second" means to a caller; a fixed per-second bucket would let two
 * calls through 2 ms apart across a second boundary.
 */
import type { Admission, LimitedKey, Limiter } from './limiter.ts';
import type { QuotaDay } from './quota-day.ts';

const WINDOW_MS = 1000;

interface KeyState {
  day: string;
  used: number;
  /** Admission times (epoch ms) inside the current window, oldest first; at most ratePerSecond long. */
  recent: number[];
}

export function createMemoryLimiter(options: {
  quotaDay: (now: number) => QuotaDay;
  /** Quota already consumed by an allowance (every key of a lineage) on a day, from the usage tables. */
  usedOnDay: (lineageId: string, day: string, deadline?: number) => Promise<number>;
}): Limiter {
  /** By lineage: the keys of one reissue chain share one state. */
  const states = new Map<string, KeyState>();
  const loading = new Map<string, Promise<KeyState>>();

  async function stateFor(lineageId: string, day: string, deadline: number | undefined): Promise<KeyState> {
    const state = states.get(lineageId);
    if (state && state.day === day) return state;
    const id = `${lineageId}\u0000${day}`;
    let pending = loading.get(id);
    if (!pending) {
      // One load per lineage and day, however many calls arrive while it runs; it ends by the first
      // call's deadline, so never after a later call's.
      pending = options.usedOnDay(lineageId, day, deadline).then((used) => {
        const fresh: KeyState = { day, used, recent: state?.recent ?? [] };
        states.set(lineageId, fresh);
        return fresh;
      });
      loading.set(id, pending);
      pending.finally(() => loading.delete(id)).catch(() => {});
    }
    return pending;
  }

  return {
    async admit(key: LimitedKey, now: number, deadline?: number): Promise<Admission> {
      const { day, resetsAt } = options.quotaDay(now);
      const state = await stateFor(key.lineageId, day, deadline);
      // From here to the return nothing awaits: check and consume happen as one step.
      const dailyReset = Math.ceil(resetsAt / 1000);
      while (state.recent.length > 0 && state.recent[0] <= now - WINDOW_MS) state.recent.shift();

      if (state.used >= key.dailyQuota) {
        return {
          admitted: false,
          reason: 'quota',
          limit: key.dailyQuota,
          remaining: 0,
          resetAt: dailyReset,
          retryAfter: Math.max(1, Math.ceil((resetsAt - now) / 1000)),
        };
      }
      if (state.recent.length >= key.ratePerSecond) {
        const windowEnds = state.recent[0] + WINDOW_MS;
        return {
          admitted: false,
          reason: 'rate',
          limit: key.dailyQuota,
          remaining: key.dailyQuota - state.used,
          resetAt: Math.ceil(windowEnds / 1000),
          retryAfter: Math.max(1, Math.ceil((windowEnds - now) / 1000)),
        };
      }
      state.used++;
      state.recent.push(now);
      if (state.recent.length > key.ratePerSecond) state.recent.splice(0, state.recent.length - key.ratePerSecond);
      return { admitted: true, limit: key.dailyQuota, remaining: key.dailyQuota - state.used, resetAt: dailyReset };
    },
  };
}
