/**
 * Durability across a restart on the same SQLite file: a graceful stop exits 0 with every answered call
 * committed, so the restarted server's quota counter starts from what was used, not from zero; and a
 * second start seeds nothing new and prints no credentials.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createDb } from '../../lib/db/client.ts';
import { errorBody } from '../support/mcp-answers.ts';
import { bearer, postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { reportCountingRateLimited } from '../support/rate-limited-report.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const CREDENTIALS = /First start|One-time password|Demo key/;
const QUERY_METHANE = () => toolCall('service_query_compound', { compound_name: 'methane' });

let first: TestServer | undefined;
let second: TestServer | undefined;
after(async () => {
  await first?.stop({ keepData: !!second });
  await second?.stop();
});

test('quota and usage survive a restart; the second start creates no admin and prints no credentials', async () => {
  first = await startTestServer();
  assert.match(first.output(), /One-time password:\s+\S+/);
  assert.match(first.output(), /Demo key \(free\):\s+cf_\w+/);

  const created = first.cli(
    'key',
    'create',
    '--owner',
    first.adminEmail,
    '--daily-quota',
    '3',
    '--rps',
    '100',
    '--json',
  );
  assert.equal(created.status, 0, created.stderr);
  const { key } = JSON.parse(created.stdout);
  for (let i = 0; i < 2; i++) assert.equal((await postMcp(first.mcpUrl, QUERY_METHANE(), bearer(key))).status, 200);

  assert.equal(await first.stop({ keepData: true }), 0, `SIGTERM must stop the server cleanly:\n${first.output()}`);
  second = await startTestServer({}, { restartOf: first });
  assert.doesNotMatch(second.output(), CREDENTIALS);

  const third = await postMcp(second.mcpUrl, QUERY_METHANE(), bearer(key));
  assert.equal(third.status, 200, 'the third call of 3 is admitted');
  assert.equal(third.headers.get('x-ratelimit-remaining'), '0');
  const fourth = await postMcp(second.mcpUrl, QUERY_METHANE(), bearer(key));
  assert.equal(fourth.status, 429, 'the restarted server counted the 2 calls made before it');
  assert.equal(errorBody(fourth).reason, 'daily_quota');

  const restarted = second;
  const report = await reportCountingRateLimited(() => restarted.cliJson('key', 'show', key), 1);
  assert.equal(report.usedToday, 3);
  assert.deepEqual(report.today, [{ tool: 'service_query_compound', successes: 3, failures: 0, rateLimited: 1 }]);
  assert.equal(report.lastCalls.length, 4);

  // Same installation: the demo key from the first start still works (same hash secret), and there is one admin.
  assert.equal((await postMcp(second.mcpUrl, rpc('ping'), bearer(second.demoKey))).status, 200);
  const db = createDb(second.env.DATABASE_URL);
  try {
    assert.equal(await db.user.count({ where: { role: 'admin' } }), 1);
    assert.equal(await db.apiKey.count({ where: { name: 'Demo key' } }), 1);
  } finally {
    await db.$disconnect();
  }
  assert.equal(await second.stop({ keepData: true }), 0);
});
