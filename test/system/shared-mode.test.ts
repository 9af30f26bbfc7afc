/**
 * The shared mode: production servers on one fresh PostgreSQL database and one Redis (under a key prefix
 * of this run), with calls spread across them. The first suite uses the machine's Redis and two
 * instances; the second starts its own redis-server, kills it and restarts it empty. Skipped when
 * PostgreSQL or Redis is not there, except under CI=true.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { errorBody } from '../support/mcp-answers.ts';
import { bearer, type McpAnswer, postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { reportCountingRateLimited } from '../support/rate-limited-report.ts';
import {
  MACHINE_REDIS,
  redisAvailable,
  sharedEnv,
  startRedis,
  startSharedInstances,
  stopRedis,
} from '../support/shared-mode.ts';
import { scratchPostgresUrl } from '../support/test-databases.ts';
import { freePort, startTestServer, type TestServer } from '../support/test-server.ts';

const QUERY_WATER = () => toolCall('service_query_compound', { compound_name: 'water' });
const INITIALIZE = () =>
  rpc('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'shared-test', version: '1' },
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const count = (answers: McpAnswer[], status: number) => answers.filter((a) => a.status === status).length;

test('two instances sharing PostgreSQL and Redis', async (t) => {
  const shared = await startSharedInstances(t);
  if (!shared) return;
  const { url, env, a, b } = shared;
  const both = [a.mcpUrl, b.mcpUrl];

  await t.test(
    'a key with a daily quota of 10 admits exactly 10 of 40 simultaneous calls on both instances',
    async () => {
      const { key } = a.cliJson('key', 'create', '--owner', a.adminEmail, '--daily-quota', '10', '--rps', '1000');
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => postMcp(both[i % 2], QUERY_WATER(), bearer(key))),
      );
      assert.equal(count(answers, 200), 10);
      assert.equal(count(answers, 429), 30);
      assert.ok(answers.filter((r) => r.status === 429).every((r) => errorBody(r).reason === 'daily_quota'));
      const report = await reportCountingRateLimited(() => b.cliJson('key', 'show', key), 30);
      assert.equal(report.usedToday, 10);
      assert.deepEqual(report.today, [{ tool: 'service_query_compound', successes: 10, failures: 0, rateLimited: 30 }]);
    },
  );

  await t.test('1 call per second holds across instances: of two simultaneous calls one is admitted', async () => {
    const { key } = a.cliJson('key', 'create', '--owner', a.adminEmail, '--tier', 'free');
    const [first, second] = await Promise.all(both.map((mcpUrl) => postMcp(mcpUrl, QUERY_WATER(), bearer(key))));
    assert.deepEqual([first.status, second.status].sort(), [200, 429]);
    const refused = first.status === 429 ? first : second;
    assert.equal(errorBody(refused).reason, 'rate_per_second');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '999');
  });

  await t.test('a key disabled on one instance is refused by the other within 1 s', async () => {
    const { key } = a.cliJson('key', 'create', '--owner', a.adminEmail, '--tier', 'pro');
    // In both instances' caches first, so the change has to reach them.
    for (const mcpUrl of both) assert.equal((await postMcp(mcpUrl, rpc('ping'), bearer(key))).status, 200);
    const disabled = a.cli('key', 'disable', key, '--reason', 'posted in a forum');
    assert.equal(disabled.status, 0, disabled.stderr);
    let answer: McpAnswer;
    const deadline = Date.now() + 1000;
    do answer = await postMcp(b.mcpUrl, rpc('ping'), bearer(key));
    while (answer.status === 200 && Date.now() < deadline);
    assert.equal(answer.status, 401, 'the other instance still accepted it 1 s after the disable');
    assert.match(errorBody(answer).message, /disabled by the service's operator on /);
    assert.doesNotMatch(errorBody(answer).message, /posted in a forum/, 'the reason stays with the owner and staff');
  });

  await t.test('a change announced on Redis alone reaches both instances (without PostgreSQL NOTIFY)', async () => {
    const { key, id } = a.cliJson('key', 'create', '--owner', a.adminEmail, '--tier', 'pro');
    for (const mcpUrl of both) assert.equal((await postMcp(mcpUrl, rpc('ping'), bearer(key))).status, 200);
    // Written behind the store's back, so only the Redis message can tell the instances to re-read it.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(`UPDATE "ApiKey" SET "disabledAt" = now(), "disabledReason" = 'redis only' WHERE "id" = $1`, [id]);
    await db.end();
    const publisher = new Redis(MACHINE_REDIS);
    await publisher.publish(`${env.REDIS_KEY_PREFIX}:key-changes`, id);
    publisher.disconnect();
    for (const mcpUrl of both) {
      let answer: McpAnswer;
      const deadline = Date.now() + 1000;
      do answer = await postMcp(mcpUrl, rpc('ping'), bearer(key));
      while (answer.status === 200 && Date.now() < deadline);
      assert.equal(answer.status, 401, `${mcpUrl} still accepted it 1 s after the Redis message`);
    }
  });

  await t.test('usage recorded by both instances adds up', async () => {
    const { key } = a.cliJson('key', 'create', '--owner', a.adminEmail, '--tier', 'pro');
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await postMcp(both[i % 3 === 0 ? 0 : 1], QUERY_WATER(), bearer(key)));
    assert.equal(count(answers, 200), 10);
    const ids = new Set(answers.map((r) => r.headers.get('x-request-id')));
    const report = a.cliJson('key', 'show', key);
    assert.equal(report.usedToday, 10);
    assert.deepEqual(report.today, [{ tool: 'service_query_compound', successes: 10, failures: 0, rateLimited: 0 }]);
    assert.ok(report.lastCalls.every((call: { requestId: string }) => ids.has(call.requestId)));
  });
});

test('Redis going away and coming back empty', async (t) => {
  let server: TestServer | undefined;
  let redis: ChildProcess | undefined;
  t.after(async () => {
    await server?.stop();
    if (redis) await stopRedis(redis);
  });
  const url = await scratchPostgresUrl(t);
  if (!url || !(await redisAvailable(t, MACHINE_REDIS))) return;
  const port = await freePort();
  redis = await startRedis(port);
  server = await startTestServer(sharedEnv(url, `redis://127.0.0.1:${port}`));
  const { key } = server.cliJson('key', 'create', '--owner', server.adminEmail, '--daily-quota', '6', '--rps', '1000');
  for (let i = 0; i < 3; i++) assert.equal((await postMcp(server.mcpUrl, QUERY_WATER(), bearer(key))).status, 200);

  await t.test(
    'with Redis down, tools/call answers 503 limiter_unavailable; initialize and the portal still work',
    async () => {
      await stopRedis(redis!);
      const answer = await postMcp(server!.mcpUrl, QUERY_WATER(), bearer(key));
      assert.equal(answer.status, 503);
      assert.equal(errorBody(answer).error, 'limiter_unavailable');
      assert.match(errorBody(answer).message, /retry/);
      assert.equal(answer.headers.get('retry-after'), '1');
      assert.equal((await postMcp(server!.mcpUrl, INITIALIZE())).status, 200);
      assert.equal((await postMcp(server!.mcpUrl, rpc('tools/list'))).status, 200);
      assert.equal((await fetch(`${server!.baseUrl}/`)).status, 200);
      const report = server!.cliJson('key', 'show', key);
      assert.equal(report.usedToday, 3, 'a refused call costs no quota');
    },
  );

  await t.test(
    'Redis restarted empty: calls work again and the quota, rebuilt from PostgreSQL, stays exact',
    async () => {
      redis = await startRedis(port);
      let answer: McpAnswer;
      const deadline = Date.now() + 10_000;
      do {
        answer = await postMcp(server!.mcpUrl, QUERY_WATER(), bearer(key));
        if (answer.status === 503) await sleep(100);
      } while (answer.status === 503 && Date.now() < deadline);
      assert.equal(answer.status, 200, 'no recovery within 10 s of Redis coming back');
      assert.equal(answer.headers.get('x-ratelimit-remaining'), '2');
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => postMcp(server!.mcpUrl, QUERY_WATER(), bearer(key))),
      );
      assert.equal(count(burst, 200), 2);
      assert.equal(count(burst, 429), 8);
      assert.equal(server!.cliJson('key', 'show', key).usedToday, 6);
    },
  );
});
