/**
 * The shared mode's attempt counter: each counted key (an address, an email) is a Redis list of its
 * latest attempt times, at most `limit` of them, read and changed by one Lua script per operation, so
 * concurrent attempts on any instance are counted exactly once. Times are Redis server time, so the
 * instances' clocks do not matter, and each list expires one window after its latest attempt.
 *
 * Redis unreachable: the counter falls back to this instance's own memory (the embedded mode's
 * counter) until Redis answers again. Throttling then holds per instance rather than across them,
 * which still bounds a guesser to (instances × limit) attempts per window, while sign-ins, leak
 * reports and keys keep working: failing closed would lock every user out of the portal for as long as
 * Redis is away, and failing open would drop the limit altogether.
 */
import type { Redis } from 'ioredis';
import { log } from '../ops/log.ts';
import { redisNames } from '../redis/clients.ts';
import type { Attempt, AttemptCounter } from './attempt-counter.ts';

/**
 * KEYS[1]: the key's attempt times (epoch ms, oldest first). ARGV: limit, window (ms), mode ('peek',
 * 'take' or 'record'). Answers {taken (1/0), ms until the next attempt may be made}.
 */
const ATTEMPT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local function wait()
  local n = redis.call('LLEN', KEYS[1])
  if n < limit then return 0 end
  local oldest = tonumber(redis.call('LINDEX', KEYS[1], n - limit))
  return math.max(0, oldest + window - now)
end
local before = wait()
if ARGV[3] == 'peek' or (ARGV[3] == 'take' and before > 0) then return {0, before} end
redis.call('RPUSH', KEYS[1], string.format('%.0f', now))
redis.call('LTRIM', KEYS[1], -limit, -1)
redis.call('PEXPIRE', KEYS[1], window)
return {1, wait()}
`;

type Mode = 'peek' | 'take' | 'record';
type WithAttemptScript = Redis & {
  chemflowAttempt(
    key: string,
    limit: number,
    windowMs: number,
    mode: Mode,
  ): Promise<[taken: number, retryAfterMs: number]>;
};

interface RedisAttemptCounterOptions {
  redis: Redis;
  /** REDIS_KEY_PREFIX. */
  prefix: string;
  /** What is counted ('sign-in-email', 'key-auth', …): part of each Redis key. */
  name: string;
  limit: number;
  windowMs: number;
  /** Counts while Redis is unreachable. */
  fallback: AttemptCounter;
  /** Resolves when the connection can take a command, rejects promptly when it cannot. */
  whenReady?: (redis: Redis) => Promise<void>;
}

export function createRedisAttemptCounter(options: RedisAttemptCounterOptions): AttemptCounter {
  const redis = options.redis as WithAttemptScript;
  if (!redis.chemflowAttempt) redis.defineCommand('chemflowAttempt', { numberOfKeys: 1, lua: ATTEMPT_SCRIPT });
  const { prefix, name, limit, windowMs, fallback } = options;
  let degraded = false;

  async function run(key: string, mode: Mode, orElse: () => Promise<Attempt>): Promise<Attempt> {
    try {
      if (redis.status !== 'ready') await options.whenReady?.(redis);
      const [taken, retryAfterMs] = await redis.chemflowAttempt(
        redisNames.attempts(prefix, name, key),
        limit,
        windowMs,
        mode,
      );
      if (degraded) log('info', 'attempt counting is shared through Redis again', { counter: name });
      degraded = false;
      return { taken: taken === 1, retryAfterMs };
    } catch (error) {
      if (!degraded)
        log('warn', 'Redis unreachable: counting failed attempts on this instance only until it returns', {
          counter: name,
          error: (error as Error).message,
        });
      degraded = true;
      return orElse();
    }
  }

  return {
    limit,
    windowMs,
    retryAfterMs: async (key) =>
      (await run(key, 'peek', async () => ({ taken: false, retryAfterMs: await fallback.retryAfterMs(key) })))
        .retryAfterMs,
    record: async (key) => {
      await run(key, 'record', async () => {
        await fallback.record(key);
        return { taken: true, retryAfterMs: 0 };
      });
    },
    take: (key) => run(key, 'take', () => fallback.take(key)),
    async clear(key) {
      await fallback.clear(key);
      try {
        if (redis.status !== 'ready') await options.whenReady?.(redis);
        await redis.del(redisNames.attempts(prefix, name, key));
      } catch {
        // A success that cannot clear its count leaves it to expire with the window; nothing to undo.
      }
    },
  };
}
