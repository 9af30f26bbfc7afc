/**
 * The shared mode's limiter: every instance admits through one Lua script in Redis, which checks and
 * consumes a key's per-second limit and daily quota in one atomic step, with the same semantics and
 * the same Admission results as the in-process limiter (memory-limiter.ts):
 *  - per-second limit: a sliding 1 s window, on Redis server time (TIME), so the instances' clocks do
 *    not matter; the last R admission times are kept in a list;
 *  - daily quota: a counter per key and quota day. The quota day itself is the calling instance's
 *    (QUOTA_TIMEZONE needs the calendar, which Lua lacks), so instances need synchronised clocks
 *    around midnight, as any NTP-run host has.
 * Both belong to the key's lineage (see LimitedKey), not to the secret: every key of one reissue chain,
 * on every instance, is admitted against the same two Redis keys. Both carry the hash tag
 * {<prefix>:<lineageId>}, so they sit on one cluster slot; both expire (the window 2 s after the last
 * admission, the day counter a day after its quota day ends).
 *
 * Redis losing its memory (a restart without persistence): the script finds no day counter and answers
 * "unseeded" instead of guessing. The instance then commits its own pending usage rows, reads the day's
 * usage from PostgreSQL (summed over the lineage's keys) and runs the script again with that number, which sets the counter only if it
 * is still missing (another instance may have seeded it meanwhile). The remaining edge: calls other
 * instances admitted just before the loss and have not committed yet are not in PostgreSQL's count, so
 * up to that many calls (those in flight at that instant, a few milliseconds' worth) can be admitted
 * twice on that key and day.
 */
import type { Redis } from 'ioredis';
import type { Admission, LimitedKey, Limiter } from './limiter.ts';
import { LimiterUnavailableError } from './limiter.ts';
import type { QuotaDay } from './quota-day.ts';

const WINDOW_US = 1_000_000;

/**
 * KEYS[1]: the admission times (µs, oldest first) of the key's window; KEYS[2]: its day counter.
 * ARGV: daily quota, per-second limit, end of the quota day (epoch ms), seed ('' unless seeding).
 * Answers {outcome, used, windowEndsUs, nowUs}; outcome 0 admitted, 1 rate, 2 quota, -1 unseeded.
 */
const ADMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local quota = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local used = redis.call('GET', KEYS[2])
if not used then
  if ARGV[4] == '' then return {-1, 0, 0, now} end
  redis.call('SET', KEYS[2], ARGV[4], 'PXAT', tonumber(ARGV[3]) + 86400000)
  used = ARGV[4]
end
used = tonumber(used)
if used >= quota then return {2, used, 0, now} end
local n = redis.call('LLEN', KEYS[1])
if n > rate then
  redis.call('LTRIM', KEYS[1], n - rate, -1)
  n = rate
end
if n >= rate then
  local oldest = tonumber(redis.call('LINDEX', KEYS[1], 0))
  if oldest > now - ${WINDOW_US} then return {1, used, oldest + ${WINDOW_US}, now} end
end
redis.call('RPUSH', KEYS[1], string.format('%.0f', now))
if n + 1 > rate then redis.call('LTRIM', KEYS[1], -rate, -1) end
redis.call('PEXPIRE', KEYS[1], ${(2 * WINDOW_US) / 1000})
used = redis.call('INCR', KEYS[2])
return {0, used, 0, now}
`;

type ScriptAnswer = [outcome: number, used: number, windowEndsUs: number, nowUs: number];
type WithAdmitScript = Redis & {
  chemflowAdmit(
    rateKey: string,
    dayKey: string,
    quota: number,
    rate: number,
    dayEndsMs: number,
    seed: string,
  ): Promise<ScriptAnswer>;
};

interface RedisLimiterOptions {
  redis: Redis;
  /** REDIS_KEY_PREFIX. */
  prefix: string;
  quotaDay: (now: number) => QuotaDay;
  /** Quota already consumed by an allowance (every key of a lineage) on a day, from the usage tables. */
  usedOnDay: (lineageId: string, day: string, deadline?: number) => Promise<number>;
  /** Commits this instance's pending usage rows, so the count read for a seed includes them. */
  beforeSeeding?: () => Promise<void>;
  /** Resolves when the connection can take a command, rejects promptly when it cannot. */
  whenReady?: (redis: Redis) => Promise<void>;
}

export function createRedisLimiter(options: RedisLimiterOptions): Limiter {
  const redis = options.redis as WithAdmitScript;
  // defineCommand runs EVALSHA and falls back to EVAL once when Redis has lost the script (a restart).
  if (!redis.chemflowAdmit) redis.defineCommand('chemflowAdmit', { numberOfKeys: 2, lua: ADMIT_SCRIPT });
  const seeding = new Map<string, Promise<string>>();

  /** One read of PostgreSQL per lineage and day, however many calls find the counter missing at once (by the first one's deadline). */
  function seedFor(lineageId: string, day: string, deadline: number | undefined): Promise<string> {
    const id = `${lineageId}\u0000${day}`;
    let pending = seeding.get(id);
    if (!pending) {
      pending = (async () => {
        await options.beforeSeeding?.();
        return String(await options.usedOnDay(lineageId, day, deadline));
      })();
      seeding.set(id, pending);
      pending.finally(() => seeding.delete(id)).catch(() => {});
    }
    return pending;
  }

  async function run(
    key: LimitedKey,
    day: string,
    dayEndsMs: number,
    deadline: number | undefined,
  ): Promise<ScriptAnswer> {
    const tag = `{${options.prefix}:${key.lineageId}}`;
    const call = (seed: string) =>
      redis.chemflowAdmit(`${tag}:rate`, `${tag}:day:${day}`, key.dailyQuota, key.ratePerSecond, dayEndsMs, seed);
    try {
      if (redis.status !== 'ready') await options.whenReady?.(redis);
      const answer = await call('');
      if (answer[0] !== -1) return answer;
      return await call(await seedFor(key.lineageId, day, deadline));
    } catch (error) {
      throw new LimiterUnavailableError(error);
    }
  }

  return {
    async admit(key: LimitedKey, now: number, deadline?: number): Promise<Admission> {
      const { day, resetsAt } = options.quotaDay(now);
      const [outcome, used, windowEndsUs, nowUs] = await run(key, day, resetsAt, deadline);
      const dailyReset = Math.ceil(resetsAt / 1000);
      const limit = key.dailyQuota;
      if (outcome === 2) {
        return {
          admitted: false,
          reason: 'quota',
          limit,
          remaining: 0,
          resetAt: dailyReset,
          retryAfter: Math.max(1, Math.ceil((resetsAt - nowUs / 1000) / 1000)),
        };
      }
      if (outcome === 1) {
        return {
          admitted: false,
          reason: 'rate',
          limit,
          remaining: Math.max(0, limit - used),
          resetAt: Math.ceil(windowEndsUs / WINDOW_US),
          retryAfter: Math.max(1, Math.ceil((windowEndsUs - nowUs) / WINDOW_US)),
        };
      }
      return { admitted: true, limit, remaining: Math.max(0, limit - used), resetAt: dailyReset };
    },
  };
}
