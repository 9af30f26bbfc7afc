/**
 * The data migration that rewrites stored tool names outside the catalogue to 'unknown_tool', on both
 * providers: usage written the way the old server wrote it (the hot-path store, names as the
 * caller sent them: a 100 KB name, a secret, control characters), then the migration applied by the
 * real runner. Every call is kept, the daily totals per key and day are unchanged, and the
 * (keyId, day, tool) key stays unique with the unknown names' counts summed into one row.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import pg from 'pg';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import type { DatabaseProvider } from '../config.ts';
import { keyWithBody } from '../keys/format.ts';
import { toolListing } from '../mcp/registry.ts';
import type { CallOutcome } from '../ops/call-labels.ts';
import type { CallRow, HotPathStore } from './hot-path.ts';
import { openPostgresHotPath } from './hot-path-postgres.ts';
import { openSqliteHotPath } from './hot-path-sqlite.ts';
import { migrateDatabase } from './migrate.ts';
import { readMigrations } from './migrations.ts';
import { openSqliteFile } from './sqlite-file.ts';

const MIGRATION = readMigrations('sqlite').find((m) => m.name.endsWith('_unknown_tool_label'))!.name;
const KNOWN = 'service_formula_info';
const SECRET = keyWithBody('A'.repeat(32));

async function sql(url: string, text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (url.startsWith('file:')) {
    const db = openSqliteFile(url);
    try {
      const statement = db.prepare(text.replace(/\$(\d+)/g, '@p$1'));
      const named = Object.fromEntries(params.map((value, i) => [`p${i + 1}`, value]));
      if (statement.reader) return statement.all(named) as Record<string, unknown>[];
      statement.run(named);
      return [];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

function hotPath(url: string): HotPathStore {
  return url.startsWith('file:') ? openSqliteHotPath(openSqliteFile(url)) : openPostgresHotPath(url);
}

for (const provider of ['sqlite', 'postgresql'] as DatabaseProvider[]) {
  test(`${provider}: stored tool names outside the catalogue become 'unknown_tool', counts merged per key and day`, async (t: TestContext) => {
    const url = provider === 'sqlite' ? scratchSqliteUrl(t) : await scratchPostgresUrl(t);
    if (!url) return;
    await migrateDatabase(url);
    await sql(
      url,
      `INSERT INTO "Tier" ("id", "name", "dailyQuota", "ratePerSecond", "description", "updatedAt") VALUES ('free', 'Free', 100, 1, 'free', CURRENT_TIMESTAMP)`,
    );
    await sql(
      url,
      `INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'dev@example.test', CURRENT_TIMESTAMP)`,
    );
    for (const id of ['k1', 'k2']) {
      await sql(
        url,
        `INSERT INTO "ApiKey" ("id", "lineageId", "ownerId", "name", "keyHash", "start", "end", "tierId", "updatedAt") VALUES ($1, $1, 'u1', $1, $2, 'abcd', 'wxyz', 'free', CURRENT_TIMESTAMP)`,
        [id, `hash-${id}`],
      );
    }

    // Usage as a server without the migration recorded it: the names as sent.
    let n = 0;
    const row = (keyId: string, day: string, tool: string, outcome: CallOutcome): CallRow => ({
      requestId: `r${++n}`,
      keyId,
      tool,
      outcome,
      errorCode: outcome === 'success' ? null : 'unknown_tool',
      latencyMs: 1,
      createdAt: Date.UTC(2026, 10, 20) + n,
      day,
    });
    const store = hotPath(url);
    await store.writeCalls([
      row('k1', '2026-11-20', KNOWN, 'success'),
      row('k1', '2026-11-20', KNOWN, 'failure'),
      row('k1', '2026-11-20', 'x'.repeat(100_000), 'failure'),
      row('k1', '2026-11-20', SECRET, 'failure'),
      row('k1', '2026-11-20', SECRET, 'failure'),
      row('k1', '2026-11-20', 'tab\there\u0001', 'rate_limited'),
      row('k1', '2026-11-20', 'unknown_tool', 'failure'),
      row('k1', '2026-11-21', 'SERVICE_FORMULA_INFO', 'failure'),
      row('k2', '2026-11-20', 'service_', 'failure'),
    ]);
    await store.close();

    await sql(url, `DELETE FROM "_prisma_migrations" WHERE "migration_name" = $1`, [MIGRATION]);
    assert.deepEqual(await migrateDatabase(url), { applied: [MIGRATION] });

    const labels = new Set([...toolListing.map((tool) => tool.name), 'unknown_tool']);
    const calls = await sql(url, 'SELECT "requestId", "tool" FROM "CallLog" ORDER BY "id"');
    assert.equal(calls.length, 9, 'every call is kept');
    assert.deepEqual(
      calls.map((c) => c.tool),
      [KNOWN, KNOWN, ...Array(7).fill('unknown_tool')],
    );

    const daily = await sql(
      url,
      'SELECT "keyId", "day", "tool", "successes", "failures", "rateLimited" FROM "DailyUsage" ORDER BY "keyId", "day", "tool"',
    );
    assert.deepEqual(
      daily.map((d) => ({
        ...d,
        successes: Number(d.successes),
        failures: Number(d.failures),
        rateLimited: Number(d.rateLimited),
      })),
      [
        { keyId: 'k1', day: '2026-11-20', tool: KNOWN, successes: 1, failures: 1, rateLimited: 0 },
        { keyId: 'k1', day: '2026-11-20', tool: 'unknown_tool', successes: 0, failures: 4, rateLimited: 1 },
        { keyId: 'k1', day: '2026-11-21', tool: 'unknown_tool', successes: 0, failures: 1, rateLimited: 0 },
        { keyId: 'k2', day: '2026-11-20', tool: 'unknown_tool', successes: 0, failures: 1, rateLimited: 0 },
      ],
    );
    for (const stored of [...calls, ...daily]) assert.ok(labels.has(String(stored.tool)));
  });
}
