/**
 * The Redis limiter's script against the machine's Redis (127.0.0.1:6379, or TEST_REDIS_URL), under a
 * key prefix of its own that is deleted afterwards. Skipped when no Redis answers, except under CI=true.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type TestContext, test } from 'node:test';
import { Redis } from 'ioredis';
import { quotaDayCalculator } from './quota-day.ts';
import { createRedisLimiter } from './redis-limiter.ts';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function scratchRedis(t: TestContext): Promise<{ redis: Redis; prefix: string } | undefined> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const reason = `Redis not reachable at ${REDIS_URL}: ${(error as Error).message}`;
    if (process.env.CI === 'true') throw new Error(`${reason}. CI=true requires Redis.`);
    t.skip(reason);
    return undefined;
  }
  const prefix = `chemflow-test-${randomBytes(6).toString('hex')}`;
  t.after(async () => {
    const keys = await redis.keys(`{${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  return { redis, prefix };
}

const quotaDay = quotaDayCalculator('UTC');

test('the Redis limiter script', async (t) => {
  const scratch = await scratchRedis(t);
  if (!scratch) return;
  const { redis, prefix } = scratch;
  const seeds: string[] = [];
  let usedInDatabase = 0;
  const limiter = createRedisLimiter({
    redis,
    prefix,
    quotaDay,
    usedOnDay: async (lineageId, day) => {
      seeds.push(`${lineageId}/${day}`);
      return usedInDatabase;
    },
  });
  let n = 0;
  const newKey = (dailyQuota: number, ratePerSecond: number) => ({
    id: `key${++n}`,
    lineageId: `lineage${n}`,
    dailyQuota,
    ratePerSecond,
  });

  await t.test('N simultaneous calls with Q left admit exactly Q', async () => {
    const key = newKey(5, 1000);
    seeds.length = 0;
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.admit(key, Date.now())));
    assert.equal(results.filter((r) => r.admitted).length, 5);
    assert.deepEqual(
      results
        .filter((r) => r.admitted)
        .map((r) => r.remaining)
        .sort(),
      [0, 1, 2, 3, 4],
    );
    const refused = results.filter((r) => !r.admitted);
    assert.ok(refused.every((r) => r.reason === 'quota' && r.remaining === 0 && r.limit === 5));
    const { resetsAt } = quotaDay(Date.now());
    assert.ok(refused.every((r) => r.resetAt === Math.ceil(resetsAt / 1000) && r.retryAfter! >= 1));
    // Calls that found the counter missing read the usage tables (shared while in flight); the first seed wins.
    assert.ok(seeds.length >= 1);
    assert.equal(await redis.get(`{${prefix}:${key.lineageId}}:day:${quotaDay(Date.now()).day}`), '5');
  });

  await t.test('the per-second limit is a sliding window that consumes nothing when it refuses', async () => {
    const key = newKey(100, 2);
    const [a, b, c] = await Promise.all([
      limiter.admit(key, Date.now()),
      limiter.admit(key, Date.now()),
      limiter.admit(key, Date.now()),
    ]);
    assert.deepEqual([a.admitted, b.admitted, c.admitted], [true, true, false]);
    assert.equal(c.reason, 'rate');
    assert.equal(c.remaining, 98, 'the refused call used no quota');
    assert.equal(c.retryAfter, 1);
    const [seconds] = await redis.time();
    assert.ok(c.resetAt >= Number(seconds) && c.resetAt <= Number(seconds) + 2);
    // Once the oldest admission is more than 1 s old, one more call fits.
    await new Promise((resolve) => setTimeout(resolve, 1050));
    const d = await limiter.admit(key, Date.now());
    assert.equal(d.admitted, true);
    assert.equal(d.remaining, 97);
  });

  await t.test('a key whose limit was lowered is held to the new limit at once', async () => {
    const key = newKey(100, 3);
    for (let i = 0; i < 3; i++) assert.equal((await limiter.admit(key, Date.now())).admitted, true);
    const lowered = { ...key, ratePerSecond: 1 };
    assert.equal((await limiter.admit(lowered, Date.now())).reason, 'rate');
  });

  await t.test('a missing counter is rebuilt from the usage tables and holds the quota', async () => {
    const key = newKey(10, 1000);
    usedInDatabase = 8;
    const results = await Promise.all(Array.from({ length: 5 }, () => limiter.admit(key, Date.now())));
    assert.equal(results.filter((r) => r.admitted).length, 2);
    // Redis loses its memory: the next call seeds again from the (now larger) database count.
    const { day } = quotaDay(Date.now());
    await redis.del(`{${prefix}:${key.lineageId}}:day:${day}`);
    usedInDatabase = 10;
    const after = await limiter.admit(key, Date.now());
    assert.equal(after.admitted, false);
    assert.equal(after.reason, 'quota');
    usedInDatabase = 0;
  });

  await t.test('both counters sit on one cluster slot and expire', async () => {
    const key = newKey(10, 5);
    await limiter.admit(key, Date.now());
    const { day, resetsAt } = quotaDay(Date.now());
    const rateKey = `{${prefix}:${key.lineageId}}:rate`;
    const dayKey = `{${prefix}:${key.lineageId}}:day:${day}`;
    assert.equal(
      await redis.call('CLUSTER', 'KEYSLOT', rateKey).catch(() => 'n/a'),
      await redis.call('CLUSTER', 'KEYSLOT', dayKey).catch(() => 'n/a'),
    );
    const rateTtl = await redis.pttl(rateKey);
    assert.ok(rateTtl > 0 && rateTtl <= 2000, `rate window TTL ${rateTtl}`);
    const dayExpiry = await redis.pexpiretime(dayKey);
    assert.equal(dayExpiry, resetsAt + 86_400_000);
  });

  await t.test(
    "the keys of one lineage share one day counter and one window, on the lineage's Redis keys",
    async () => {
      const old = newKey(5, 2);
      usedInDatabase = 3;
      seeds.length = 0;
      assert.equal((await limiter.admit(old, Date.now())).remaining, 1);
      // The reissued successor: same lineage, new key id. It continues the count instead of starting at 5.
      const successor = { ...old, id: `${old.id}-reissued` };
      const next = await limiter.admit(successor, Date.now());
      assert.deepEqual([next.admitted, next.remaining], [true, 0]);
      const refused = await limiter.admit(successor, Date.now());
      assert.deepEqual([refused.admitted, refused.reason], [false, 'quota']);
      assert.deepEqual(seeds, [`${old.lineageId}/${quotaDay(Date.now()).day}`], 'seeded once, for the lineage');
      const { day } = quotaDay(Date.now());
      assert.equal(await redis.get(`{${prefix}:${old.lineageId}}:day:${day}`), '5');
      assert.deepEqual(await redis.keys(`{${prefix}:${old.id}*`), [], 'nothing is counted per key id');
      usedInDatabase = 0;

      // The per-second window is shared too: a successor with its own (higher) quota still meets the 2/s window.
      const other = newKey(100, 2);
      await limiter.admit(other, Date.now());
      await limiter.admit({ ...other, id: 'x' }, Date.now());
      const rated = await limiter.admit({ ...other, id: 'y', dailyQuota: 200 }, Date.now());
      assert.deepEqual([rated.admitted, rated.reason, rated.limit, rated.remaining], [false, 'rate', 200, 198]);
    },
  );
});
