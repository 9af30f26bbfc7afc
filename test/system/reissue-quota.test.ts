/**
 * Reissuing a key gives it a new secret, not a new allowance: a key that used up its
 * day and is reissued, by its owner through the portal's key service or by an operator through the CLI,
 * has a successor that is refused with 429 daily_quota, and a successor of a key not yet used up
 * continues its count (X-RateLimit-Remaining). Against production servers: one on SQLite (the in-process
 * limiter, across a restart), and two sharing PostgreSQL and Redis (the Redis limiter, across instances
 * and across Redis losing its counters).
 */
// test-isolation: process (it points DATABASE_URL and KEY_HASH_SECRET_FILE at its server's, which lib/ reads once per process)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { createDb, type Db } from '../../lib/db/client.ts';
import { actorOf, type Viewer } from '../../lib/portal/access.ts';
import { listMyKeys, myKeyReport, reissueMyKey } from '../../lib/portal/keys.ts';
import { errorBody, refusal } from '../support/mcp-answers.ts';
import { bearer, type McpAnswer, postMcp, toolCall } from '../support/mcp-client.ts';
import { reportCountingRateLimited } from '../support/rate-limited-report.ts';
import { MACHINE_REDIS, startSharedInstances } from '../support/shared-mode.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const QUERY_WATER = () => toolCall('service_query_compound', { compound_name: 'water' });
const DEVELOPER = 'dev@example.test';

interface Key {
  id: string;
  key: string;
  start: string;
}

const createKey = (server: TestServer, quota: number): Key =>
  server.cliJson('key', 'create', '--owner', DEVELOPER, '--daily-quota', String(quota), '--rps', '1000');
const reissueByCli = (server: TestServer, key: Key): Key => server.cliJson('key', 'reissue', key.id);

const call = (server: TestServer, key: Key) => postMcp(server.mcpUrl, QUERY_WATER(), bearer(key.key));

/** Status and refusal reason, not the whole answer (a tool result is kilobytes long). */
const summary = (answer: McpAnswer) => `${answer.status} ${refusal(answer).reason ?? refusal(answer).error ?? ''}`;

function assertAdmitted(answer: McpAnswer, remaining: number, what: string): void {
  assert.equal(answer.status, 200, `${what}: answered ${summary(answer)}`);
  assert.equal(answer.headers.get('x-ratelimit-remaining'), String(remaining), `${what}: X-RateLimit-Remaining`);
}

function assertQuotaRefused(answer: McpAnswer, limit: number, what: string): void {
  assert.equal(answer.status, 429, `${what}: answered ${summary(answer)}`);
  assert.equal(errorBody(answer).reason, 'daily_quota', what);
  assert.equal(answer.headers.get('x-ratelimit-remaining'), '0', what);
  assert.equal(answer.headers.get('x-ratelimit-limit'), String(limit), what);
}

/** The developer who owns the test keys, as the portal's key service sees them. */
async function developer(server: TestServer, db: Db): Promise<Viewer> {
  const created = server.cli('user', 'create', '--email', DEVELOPER, '--password', 'correct horse battery');
  assert.equal(created.status, 0, created.stderr);
  const user = await db.user.findUniqueOrThrow({ where: { email: DEVELOPER } });
  return { id: user.id, email: user.email, name: null, role: 'developer' };
}

/** The key page's "Reissue" (the server action calls this service), run here on the server's database. */
async function reissueByPortal(db: Db, viewer: Viewer, key: Key): Promise<Key> {
  const { key: issued, secret } = await reissueMyKey(db, viewer, key.id, actorOf(viewer, '203.0.113.9'));
  return { id: issued.id, key: secret, start: '' };
}

test('SQLite: a reissued key is the same allowance, in the limiter, across a restart, and in the portal numbers', async (t) => {
  let server = await startTestServer();
  t.after(() => server.stop());
  // The portal's key service runs in this process, on the server's database and key-hash secret.
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  process.env.KEY_HASH_SECRET_FILE = server.env.KEY_HASH_SECRET_FILE;
  const db = createDb(server.env.DATABASE_URL);
  t.after(() => db.$disconnect());
  const viewer = await developer(server, db);

  let usedUp: Key;
  let usedUpSuccessor: Key;
  let halfUsedSuccessor: Key;

  await t.test(
    'a key at its quota, reissued through the portal, has a successor refused with 429 daily_quota',
    async () => {
      usedUp = createKey(server, 3);
      for (const remaining of [2, 1, 0]) assertAdmitted(await call(server, usedUp), remaining, 'before the reissue');
      assertQuotaRefused(await call(server, usedUp), 3, 'the 4th call of 3');
      usedUpSuccessor = await reissueByPortal(db, viewer, usedUp);
      assertQuotaRefused(await call(server, usedUpSuccessor), 3, 'the successor on the same day');
      assert.equal((await call(server, usedUp)).status, 401, 'the old secret stopped working');
    },
  );

  await t.test('a key not used up, reissued through the CLI, continues its count', async () => {
    const key = createKey(server, 5);
    assertAdmitted(await call(server, key), 4, 'first call');
    assertAdmitted(await call(server, key), 3, 'second call');
    halfUsedSuccessor = reissueByCli(server, key);
    assertAdmitted(await call(server, halfUsedSuccessor), 2, 'the successor continues the count');
  });

  await t.test(
    'three reissues in a row (CLI, portal, CLI, then two with no call between) share one allowance',
    async () => {
      let key = createKey(server, 6);
      assertAdmitted(await call(server, key), 5, 'the first key');
      key = reissueByCli(server, key);
      assertAdmitted(await call(server, key), 4, 'after the 1st reissue');
      key = await reissueByPortal(db, viewer, key);
      assertAdmitted(await call(server, key), 3, 'after the 2nd reissue');
      key = reissueByCli(server, key);
      assertAdmitted(await call(server, key), 2, 'after the 3rd reissue');
      key = reissueByCli(server, await reissueByPortal(db, viewer, key));
      assertAdmitted(await call(server, key), 1, 'after two reissues back to back');
      assertAdmitted(await call(server, key), 0, 'the last call of the day');
      assertQuotaRefused(await call(server, key), 6, 'after 6 calls over 6 keys');
    },
  );

  await t.test('calls in flight while the key is reissued draw from the same allowance as its successor', async () => {
    const old = createKey(server, 20);
    const burst = (key: Key) => Array.from({ length: 30 }, () => call(server, key));
    const during = burst(old);
    const successor = await reissueByPortal(db, viewer, old);
    const answers = [...(await Promise.all(during)), ...(await Promise.all(burst(successor)))];
    assert.equal(
      answers.filter((a) => a.status === 200).length,
      20,
      'exactly the quota was admitted over both secrets',
    );
    assert.ok(
      answers.every((a) => [200, 401, 429].includes(a.status)),
      answers.map((a) => a.status).join(),
    );
  });

  await t.test(
    'after a restart the counter is rebuilt across the chain: the successor is still refused, the other continues',
    async () => {
      assert.equal(await server.stop({ keepData: true }), 0);
      server = await startTestServer({}, { restartOf: server });
      assertQuotaRefused(await call(server, usedUpSuccessor), 3, 'the used-up successor after the restart');
      assertAdmitted(
        await call(server, halfUsedSuccessor),
        1,
        'the half-used successor after the restart (2 + 1 + this one of 5)',
      );
    },
  );

  await t.test(
    "the portal and key show count the predecessor's calls in the successor's numbers, and name the old secret",
    async () => {
      const report = await reportCountingRateLimited(() => myKeyReport(db, viewer, usedUpSuccessor.id), 3);
      assert.equal(report.usedToday, 3);
      assert.equal(report.remainingToday, 0);
      assert.equal(report.lineageKeys, 2);
      // 3 admitted with the old secret; refused: 1 with the old secret, 1 with the new, 1 after the restart.
      assert.deepEqual(report.today, [{ tool: 'service_query_compound', successes: 3, failures: 0, rateLimited: 3 }]);
      assert.deepEqual(report.trend.at(-1), { day: report.quotaDay, successes: 3, failures: 0, rateLimited: 3 });
      assert.equal(report.lastCalls.length, 6);
      const oldDisplay = `${usedUp.start}`;
      assert.deepEqual(
        report.lastCalls.map((c) => c.otherKey?.display ?? 'this key'),
        ['this key', 'this key', oldDisplay, oldDisplay, oldDisplay, oldDisplay],
        "newest first: the successor's two refusals, then the old secret's four calls",
      );
      assert.equal(report.lastCalls[2].otherKey?.id, usedUp.id);

      // The old key is folded under its successor on /keys.
      const listed = (await listMyKeys(db, viewer)).keys
        .flatMap((k) => [k, ...k.replaces])
        .filter((k) => k.id === usedUp.id || k.id === usedUpSuccessor.id);
      assert.deepEqual(
        listed.map((k) => [k.status, k.usedToday]),
        [
          ['active', 3],
          ['replaced', 3],
        ],
      );

      const shown = server.cli('key', 'show', usedUpSuccessor.id);
      assert.equal(shown.status, 0, shown.stderr);
      assert.match(shown.stdout, /Today: +3 used, 0 left .*shared by the 2 keys of its reissue chain/);
      const [lastCalls, refused] = shown.stdout.split('  Refused:');
      assert.equal(lastCalls.split(`with ${usedUp.start}`).length - 1, 4, shown.stdout);
      // The old secret was tried once after the reissue: refused, and named there too.
      assert.match(refused, new RegExp(`key replaced +with ${usedUp.start}`));
    },
  );
});

test('shared mode: a reissued key is the same allowance on every instance, and after Redis loses its counters', async (t) => {
  const shared = await startSharedInstances(t);
  if (!shared) return;
  const { env, a, b } = shared;
  const created = a.cli('user', 'create', '--email', DEVELOPER, '--password', 'correct horse battery');
  assert.equal(created.status, 0, created.stderr);

  await t.test('a key used up on both instances, reissued, is refused on both', async () => {
    const key = createKey(a, 4);
    for (const [server, remaining] of [
      [a, 3],
      [b, 2],
      [a, 1],
      [b, 0],
    ] as const)
      assertAdmitted(await call(server, key), remaining, 'before the reissue');
    const successor = reissueByCli(b, key);
    assertQuotaRefused(await call(a, successor), 4, 'the successor on instance a');
    assertQuotaRefused(await call(b, successor), 4, 'the successor on instance b');
  });

  await t.test(
    'a successor continues the count across instances, and a Redis that lost the counter reseeds it from the whole chain',
    async () => {
      const key = createKey(a, 6);
      assertAdmitted(await call(a, key), 5, 'first call, instance a');
      assertAdmitted(await call(b, key), 4, 'second call, instance b');
      const successor = reissueByCli(a, key);
      assertAdmitted(await call(b, successor), 3, 'the successor on instance b');
      assertAdmitted(await call(a, successor), 2, 'the successor on instance a');

      // Redis loses its memory: the instance seeds the counter from PostgreSQL, summed over both keys.
      const redis = new Redis(MACHINE_REDIS, { maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        const counters = await redis.keys(`{${env.REDIS_KEY_PREFIX}:*`);
        assert.ok(counters.length > 0);
        await redis.del(...counters);
      } finally {
        redis.disconnect();
      }
      assertAdmitted(await call(b, successor), 1, 'after the counters were lost');
      assertAdmitted(await call(a, successor), 0, 'the last call of 6');
      assertQuotaRefused(await call(b, successor), 6, 'over the quota');

      const report = b.cliJson('key', 'show', successor.id);
      assert.deepEqual([report.usedToday, report.remainingToday, report.lineageKeys], [6, 0, 2]);
    },
  );
});
