/**
 * How the export reads SQLite, from the query plans of the statements it sends: on a database with
 * statistics (seed-scale runs ANALYZE) and a reissue chain of two keys among others, every page is read
 * along the (keyId, createdAt) index with the key fixed, never by walking the createdAt index through
 * every key's calls, and never sorted in a temporary tree.
 */
process.env.KEY_HASH_SECRET ??= 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { prepareScaleDatabase } from '../../tools/bench/seed-scale.ts';
import type { Db } from '../db/client.ts';
import { PrismaClient } from '../db/generated/sqlite/client.ts';
import { openSqliteFile, sqliteFilePath } from '../db/sqlite-file.ts';
import { callLogCsvLines, EXPORT_PAGE_ROWS } from './call-log-export.ts';

/** Prisma's logged parameters, as SQLite gets them: instants as epoch milliseconds (client.ts's timestampFormat). */
const bound = (params: string) =>
  (JSON.parse(params) as unknown[]).map((p) =>
    typeof p === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(p) ? Date.parse(p) : p,
  );

test("a chain's export reads each key along its (keyId, createdAt) index, page after page", async (t) => {
  const url = scratchSqliteUrl(t);
  await prepareScaleDatabase(url, { keys: 6, calls: 20_000, days: 30 });
  const sqlite = openSqliteFile(url);
  t.after(() => sqlite.close());
  // The two busiest keys become one reissue chain, as `key reissue` leaves it.
  const [first, second] = sqlite
    .prepare('SELECT "keyId" FROM "CallLog" GROUP BY "keyId" ORDER BY COUNT(*) DESC LIMIT 2')
    .pluck()
    .all() as string[];
  sqlite.prepare('UPDATE "ApiKey" SET "lineageId" = ? WHERE "id" = ?').run(first, second);
  const chainCalls = Number(
    sqlite.prepare('SELECT COUNT(*) FROM "CallLog" WHERE "keyId" IN (?, ?)').pluck().get(first, second),
  );
  assert.ok(chainCalls > 4 * EXPORT_PAGE_ROWS, 'enough calls for several pages of each key');

  const db = new PrismaClient({
    adapter: new PrismaBetterSqlite3({ url: sqliteFilePath(url) }, { timestampFormat: 'unixepoch-ms' }),
    log: [{ emit: 'event', level: 'query' }],
  });
  t.after(() => db.$disconnect());
  const reads: { sql: string; params: unknown[] }[] = [];
  db.$on('query', (e) => {
    if (e.query.includes('`CallLog`')) reads.push({ sql: e.query, params: bound(e.params) });
  });
  let lines = 0;
  const since = new Date(Date.now() - 31 * 86_400_000);
  for await (const chunk of callLogCsvLines(db as unknown as Db, first, since, new Date()))
    lines += chunk.split('\r\n').length - 1;
  assert.equal(lines, 1 + chainCalls, 'every call of the chain, once');

  assert.ok(reads.length > 4, `several pages were read (${reads.length})`);
  for (const { sql, params } of reads) {
    const plan = (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
      .map((step) => step.detail)
      .join('; ');
    assert.match(
      plan,
      /^SEARCH (main\.)?CallLog USING INDEX CallLog_keyId_createdAt_idx \(keyId=\? AND createdAt>\? AND/,
      sql,
    );
    assert.doesNotMatch(plan, /TEMP B-TREE/, sql);
  }
});
