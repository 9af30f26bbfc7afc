/**
 * The refusal_reasons migration on a database that already counts refused requests: each key's daily
 * counts (from before, without a reason) take the reason of its newest kept refusal, so the stopped-key
 * report shows the same totals after the upgrade; the kept refusals stay. Both providers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrateAcross } from '../../test/support/migrate-across.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { refusedReport } from '../usage/refused-report.ts';
import { createDb } from './client.ts';

const MIGRATION = 'refusal_reasons';
const [DAY1, DAY2] = ['2026-11-26', '2026-11-27'];

/** Rows as an installation from before the migration holds them: key d was disabled, key r replaced. */
const FIXTURE = `
  INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'ada@example.test', CURRENT_TIMESTAMP);
  INSERT INTO "Tier" ("id", "name", "dailyQuota", "ratePerSecond", "description", "updatedAt")
    VALUES ('free', 'Free', 1000, 1, 'free', CURRENT_TIMESTAMP);
  INSERT INTO "ApiKey" ("id", "ownerId", "name", "keyHash", "start", "end", "tierId", "lineageId", "updatedAt") VALUES
    ('d', 'u1', 'leaked', 'h-d', 'dddd', 'zzzz', 'free', 'd', CURRENT_TIMESTAMP),
    ('r', 'u1', 'rolled', 'h-r', 'rrrr', 'yyyy', 'free', 'r', CURRENT_TIMESTAMP);
  INSERT INTO "RefusedDaily" ("keyId", "day", "count", "lastAt") VALUES
    ('d', '${DAY1}', 40, ${Date.parse(`${DAY1}T10:00:00Z`)}),
    ('d', '${DAY2}', 2, ${Date.parse(`${DAY2}T10:00:00Z`)}),
    ('r', '${DAY2}', 5, ${Date.parse(`${DAY2}T11:00:00Z`)});
  INSERT INTO "RefusedCall" ("keyId", "reason", "clientAddress", "createdAt") VALUES
    ('d', 'disabled', '203.0.113.7', ${Date.parse(`${DAY2}T10:00:00Z`)}),
    ('r', 'replaced', NULL, ${Date.parse(`${DAY2}T11:00:00Z`)});
`;

for (const provider of ['sqlite', 'postgresql'] as const) {
  test(`${provider}: daily refusal counts from before the migration keep their totals, under their key's reason`, async (t) => {
    const url = provider === 'sqlite' ? scratchSqliteUrl(t) : await scratchPostgresUrl(t);
    if (!url) return;
    // Epoch milliseconds on SQLite; PostgreSQL's timestamp columns take them converted.
    const fixture =
      provider === 'sqlite' ? FIXTURE : FIXTURE.replace(/\b(\d{13})\b/g, (ms) => `to_timestamp(${Number(ms) / 1000})`);
    await migrateAcross(provider, url, MIGRATION, fixture);

    const db = createDb(url);
    try {
      const rows = await db.refusedDaily.findMany({ orderBy: [{ keyId: 'asc' }, { day: 'asc' }] });
      assert.deepEqual(
        rows.map((r) => [r.keyId, r.day, r.reason, r.count]),
        [
          ['d', DAY1, 'disabled', 40],
          ['d', DAY2, 'disabled', 2],
          ['r', DAY2, 'replaced', 5],
        ],
      );
      const report = await refusedReport(db, 'd', 'd', DAY2);
      assert.deepEqual([report.total, report.today, report.since, report.recent.length], [42, 2, DAY1, 1]);
    } finally {
      await db.$disconnect();
    }
  });
}
