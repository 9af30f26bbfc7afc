/**
 * Admission of tools/call: one atomic check of the per-second limit and the daily quota that consumes
 * both only when both pass. The quota's truth is the counter held here, rebuilt from the usage tables
 * (successes + failures of the day) the first time a key is seen each day, so a restart neither forgets
 * nor double-counts committed calls.
 *
 * Both limits belong to the key's allowance (its lineage), not to the secret: every key of one reissue
 * chain is admitted against one per-second window and one day counter, so reissuing a key can neither
 * reset its quota nor double its rate, and two live secrets of one lineage draw from one counter. The
 * limits applied are those of the key presented (its own overrides or its tier's).
 */
export interface LimitedKey {
  id: string;
  /** The allowance the counters belong to (ApiKey.lineageId). */
  lineageId: string;
  dailyQuota: number;
  ratePerSecond: number;
}

export interface Admission {
  admitted: boolean;
  /** Why a call was refused. */
  reason?: 'rate' | 'quota';
  /** The daily quota (X-RateLimit-Limit). */
  limit: number;
  /** Calls left today after this one (X-RateLimit-Remaining). */
  remaining: number;
  /** Epoch seconds of the next reset that matters: the daily reset, or the end of the rate window when rate-limited. */
  resetAt: number;
  /** Whole seconds to wait before retrying (refusals only). */
  retryAfter?: number;
}

export interface Limiter {
  /** `deadline`: the call's (lib/db/hot-path.ts), for reading the key's usage so far from the database. */
  admit(key: LimitedKey, now: number, deadline?: number): Promise<Admission>;
}

/** The code of LimiterUnavailableError, by which callers recognise it (lib/error-code.ts). */
export const LIMITER_UNAVAILABLE = 'limiter_unavailable';

/** The shared limiter (Redis) could not be asked: /mcp refuses the call (fail closed) with a 503. */
export class LimiterUnavailableError extends Error {
  readonly code = LIMITER_UNAVAILABLE;

  constructor(cause: unknown) {
    super(`limiter unavailable: ${(cause as Error)?.message ?? cause}`, { cause });
  }
}
