/**
 * Call-log retention on SQLite and PostgreSQL: rows older than the retention period go, in batches,
 * newer rows and every DailyUsage aggregate stay; `cli usage prune` reports what it deleted.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { createDb, type Db } from '../../lib/db/client.ts';
import { migrateDatabase } from '../../lib/db/migrate.ts';
import { ensureTiers } from '../../lib/portal/first-start.ts';
import { pruneCallLog } from '../../lib/usage/retention.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../support/test-databases.ts';
import { isolatedEnv, runCli } from '../support/test-server.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = Date.now();
const OLD_ROWS = 7;
const RECENT_ROWS = 4;

async function seed(db: Db): Promise<string> {
  await ensureTiers(db);
  const owner = await db.user.create({ data: { email: `retention-${NOW}@example.test`, role: 'developer' } });
  const key = await db.apiKey.create({
    data: { ownerId: owner.id, name: 'retention', keyHash: `hash-${NOW}`, start: 'abcd', end: 'wxyz', tierId: 'free' },
  });
  const row = (i: number, ageDays: number) => ({
    requestId: `req-${ageDays}-${i}`,
    keyId: key.id,
    tool: 'service_query_compound',
    outcome: 'success',
    latencyMs: 1,
    createdAt: new Date(NOW - ageDays * DAY_MS),
  });
  await db.callLog.createMany({
    data: [
      ...Array.from({ length: OLD_ROWS }, (_, i) => row(i, 91 + i)), // past a 90-day retention
      ...Array.from({ length: RECENT_ROWS }, (_, i) => row(i, 89 - i * 20)), // within it (89, 69, 49, 29 days)
    ],
  });
  await db.dailyUsage.createMany({
    data: [
      {
        keyId: key.id,
        day: new Date(NOW - 95 * DAY_MS).toISOString().slice(0, 10),
        tool: 'service_query_compound',
        successes: 3,
      },
      {
        keyId: key.id,
        day: new Date(NOW - 10 * DAY_MS).toISOString().slice(0, 10),
        tool: 'service_query_compound',
        successes: 2,
      },
    ],
  });
  return key.id;
}

async function checkRetention(t: TestContext, url: string): Promise<void> {
  await migrateDatabase(url);
  const db = createDb(url);
  t.after(() => db.$disconnect());
  await seed(db);

  const dryRun = await pruneCallLog(db, { retentionDays: 90, now: NOW, dryRun: true });
  assert.equal(dryRun.rows, OLD_ROWS);
  assert.equal(await db.callLog.count(), OLD_ROWS + RECENT_ROWS, 'a dry run deletes nothing');

  // Batches of 3 with no pause: 7 old rows take three delete statements.
  const pruned = await pruneCallLog(db, { retentionDays: 90, now: NOW, batchSize: 3, pauseMs: 0 });
  assert.equal(pruned.rows, OLD_ROWS);
  assert.equal(pruned.cutoff.getTime(), NOW - 90 * DAY_MS);
  const left = await db.callLog.findMany({ select: { createdAt: true } });
  assert.equal(left.length, RECENT_ROWS);
  assert.ok(left.every((r) => r.createdAt.getTime() >= pruned.cutoff.getTime()));
  assert.equal(await db.dailyUsage.count(), 2, 'daily aggregates are kept, old ones included');

  // The CLI on the same database, with a shorter retention: the 49-, 69- and 89-day-old rows go.
  const { env } = isolatedEnv({
    DATABASE_URL: url,
    CALL_LOG_RETENTION_DAYS: '30',
    KEY_HASH_SECRET: 'retention-test-secret',
  });
  const preview = runCli(env, ['usage', 'prune', '--dry-run']);
  assert.equal(preview.status, 0, preview.stderr);
  assert.match(preview.stdout, /^Would delete 3 call-log rows older than .* \(CALL_LOG_RETENTION_DAYS=30\)\./);
  const run = runCli(env, ['usage', 'prune']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^Deleted 3 call-log rows older than .*; daily usage totals are kept\./);
  assert.equal(await db.callLog.count(), 1);
  assert.equal(await db.dailyUsage.count(), 2);

  const refused = runCli({ ...env, CALL_LOG_RETENTION_DAYS: '0' }, ['usage', 'prune']);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /CALL_LOG_RETENTION_DAYS must be an integer ≥ 1/);
}

test('call-log retention on SQLite', async (t) => {
  await checkRetention(t, scratchSqliteUrl(t));
});

test('call-log retention on PostgreSQL', async (t) => {
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  await checkRetention(t, url);
});
