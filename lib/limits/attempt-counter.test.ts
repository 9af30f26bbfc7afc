/**
 * The attempt counters behind the sign-in throttle, the leak-report limit and the /mcp key-failure
 * throttle: the in-process one and the Redis one (the machine's Redis, under a key prefix of this run,
 * deleted afterwards) must behave alike; the Redis one is shared by all its users, counts concurrent
 * attempts exactly, keeps its lists bounded and expiring, and falls back to memory when Redis is away.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { cleanUpPrefix, MACHINE_REDIS, redisAvailable, testKeyPrefix } from '../../test/support/shared-mode.ts';
import { freePort } from '../../test/support/test-server.ts';
import { openRedis, whenReady } from '../redis/clients.ts';
import { type AttemptCounter, memoryAttemptCounter } from './attempt-counter.ts';
import { AttemptWindow } from './attempt-window.ts';
import { createRedisAttemptCounter } from './redis-attempt-counter.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type MakeCounter = (limit: number, windowMs: number) => AttemptCounter;

const memoryCounters: MakeCounter = (limit, windowMs) => memoryAttemptCounter(new AttemptWindow(limit, windowMs));

/** Counters on the machine's Redis under this test's prefix, each on a connection of its own (an instance each). */
async function redisCounters(t: TestContext): Promise<{ make: MakeCounter; prefix: string } | undefined> {
  if (!(await redisAvailable(t, MACHINE_REDIS))) return undefined;
  const prefix = testKeyPrefix();
  cleanUpPrefix(t, MACHINE_REDIS, prefix);
  let n = 0;
  const make: MakeCounter = (limit, windowMs) => {
    const redis = openRedis(MACHINE_REDIS);
    t.after(() => redis.quit());
    const fallback = memoryCounters(limit, windowMs);
    return createRedisAttemptCounter({ redis, prefix, name: `counter${++n}`, limit, windowMs, fallback, whenReady });
  };
  return { make, prefix };
}

async function behavesAsAnAttemptWindow(t: TestContext, make: MakeCounter): Promise<void> {
  await t.test(
    'take allows `limit` attempts, says when the last one fills the window, then refuses without recording',
    async () => {
      const counter = make(3, 60_000);
      const first = await counter.take('a');
      const second = await counter.take('a');
      const third = await counter.take('a');
      assert.deepEqual(
        [first, second].map((a) => [a.taken, a.retryAfterMs]),
        [
          [true, 0],
          [true, 0],
        ],
      );
      assert.equal(third.taken, true);
      assert.ok(
        third.retryAfterMs > 59_000 && third.retryAfterMs <= 60_000,
        `the lock begins with the third attempt: ${third.retryAfterMs}`,
      );
      const fourth = await counter.take('a');
      assert.equal(fourth.taken, false);
      assert.ok(
        fourth.retryAfterMs > 0 && fourth.retryAfterMs <= third.retryAfterMs,
        'a refused attempt does not extend the wait',
      );
      assert.equal(await counter.retryAfterMs('b'), 0, 'other keys are unaffected');
    },
  );

  await t.test('record counts whatever the count, retryAfterMs only reads, clear forgets', async () => {
    const counter = make(2, 60_000);
    await counter.record('x');
    assert.equal(await counter.retryAfterMs('x'), 0);
    assert.equal(await counter.retryAfterMs('x'), 0, 'reading records nothing');
    await counter.record('x');
    await counter.record('x');
    assert.ok((await counter.retryAfterMs('x')) > 59_000);
    await counter.clear('x');
    assert.equal(await counter.retryAfterMs('x'), 0);
    assert.equal((await counter.take('x')).taken, true);
  });

  await t.test('attempts leave the window as it slides', async () => {
    const counter = make(2, 300);
    await counter.take('s');
    await counter.take('s');
    assert.equal((await counter.take('s')).taken, false);
    await sleep(400);
    assert.equal(await counter.retryAfterMs('s'), 0);
    assert.equal((await counter.take('s')).taken, true);
  });
}

test('the in-process counter', async (t) => {
  await behavesAsAnAttemptWindow(t, memoryCounters);
});

test('the Redis counter', async (t) => {
  const scratch = await redisCounters(t);
  if (!scratch) return;
  await behavesAsAnAttemptWindow(t, scratch.make);

  await t.test(
    'instances share the count: 12 simultaneous attempts on two connections take exactly the limit of 5',
    async () => {
      const instances = [0, 1].map(() => {
        const redis = openRedis(MACHINE_REDIS);
        t.after(() => redis.quit());
        return createRedisAttemptCounter({
          redis,
          prefix: scratch.prefix,
          name: 'shared',
          limit: 5,
          windowMs: 60_000,
          fallback: memoryCounters(5, 60_000),
          whenReady,
        });
      });
      const attempts = await Promise.all(Array.from({ length: 12 }, (_, i) => instances[i % 2].take('203.0.113.7')));
      assert.equal(attempts.filter((a) => a.taken).length, 5);
      assert.equal(
        attempts.filter((a) => a.taken && a.retryAfterMs > 0).length,
        1,
        'exactly one attempt fills the window',
      );
    },
  );

  await t.test('a key holds at most `limit` times and expires one window after its latest attempt', async () => {
    const redis = openRedis(MACHINE_REDIS);
    t.after(() => redis.quit());
    const counter = createRedisAttemptCounter({
      redis,
      prefix: scratch.prefix,
      name: 'bounded',
      limit: 3,
      windowMs: 60_000,
      fallback: memoryCounters(3, 60_000),
      whenReady,
    });
    for (let i = 0; i < 10; i++) await counter.record('flood');
    const key = `${scratch.prefix}:attempts:bounded:flood`;
    assert.equal(await redis.llen(key), 3);
    const ttl = await redis.pttl(key);
    assert.ok(ttl > 59_000 && ttl <= 60_000, `expiry ${ttl} ms`);
  });
});

test('with Redis unreachable the Redis counter counts in memory instead', async (t) => {
  const redis = openRedis(`redis://127.0.0.1:${await freePort()}`);
  t.after(() => redis.disconnect());
  const counter = createRedisAttemptCounter({
    redis,
    prefix: testKeyPrefix(),
    name: 'down',
    limit: 2,
    windowMs: 60_000,
    fallback: memoryCounters(2, 60_000),
    whenReady,
  });
  assert.equal((await counter.take('a')).taken, true);
  assert.equal((await counter.take('a')).taken, true);
  const third = await counter.take('a');
  assert.equal(third.taken, false, 'the fallback still throttles');
  assert.ok(third.retryAfterMs > 59_000);
  await counter.record('b');
  assert.equal(await counter.retryAfterMs('b'), 0);
  await counter.clear('a');
  assert.equal(await counter.retryAfterMs('a'), 0);
});
