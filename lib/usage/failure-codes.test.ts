/**
 * A key's failures by error code, on a real SQLite database with calls written by the /mcp hot path's own
 * writer: every failure of the allowance (all secrets of its reissue chain) today and over the range,
 * counted under its code, and nothing else (successes, rate-limited calls, other keys, days before the
 * range); a failure recorded after a first read is in the next one. And where the chart starts: the day
 * the chain's first key was made, and for the overview the day of the account's oldest key.
 */
process.env.KEY_HASH_SECRET = 'e'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import type { CallRow } from '../db/hot-path.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { reissueKey } from '../keys/store.ts';
import { myUsageOverview } from '../portal/usage-overview.ts';
import { keyReport } from './key-report.ts';
import { daysEndingWith } from './queries.ts';

const DAY_MS = 86_400_000;
const NOW = Date.now();
const TODAY = new Date(NOW).toISOString().slice(0, 10);
const TODAY_START = Date.parse(`${TODAY}T00:00:00Z`);
const daysAgo = (n: number) => daysEndingWith(TODAY, n + 1)[0];

async function write(url: string, rows: CallRow[]) {
  const store = openSqliteHotPath(openSqliteFile(url));
  try {
    await store.writeCalls(rows);
  } finally {
    await store.close();
  }
}

test("a key's failures are grouped by error code, today and over the range, over its whole reissue chain", async (t) => {
  const { url, db, ada, actor, issue } = await scratchPortal(t);
  const first = await issue(ada, 'agent');
  const { key: second } = await reissueKey(db, first.key.id, actor(ada));
  const other = await issue(ada, 'other');
  const rows: CallRow[] = [];
  const call = (keyId: string, ago: number, outcome: CallRow['outcome'], errorCode: string | null) => {
    const createdAt = TODAY_START - ago * DAY_MS + rows.length;
    rows.push({
      requestId: `r${rows.length}`,
      keyId,
      tool: 'service_query_compound',
      outcome,
      errorCode,
      latencyMs: 1,
      createdAt,
      day: new Date(createdAt).toISOString().slice(0, 10),
    });
  };
  for (let i = 0; i < 3; i++) call(second.id, 0, 'failure', 'compound_not_found');
  call(first.key.id, 0, 'failure', 'invalid_argument'); // the old secret, still tried
  call(second.id, 0, 'failure', null);
  call(second.id, 0, 'success', null);
  call(second.id, 0, 'rate_limited', 'rate_limit_exceeded');
  for (let i = 0; i < 2; i++) call(second.id, 2, 'failure', 'compound_not_found');
  call(first.key.id, 6, 'failure', 'unit_unknown'); // the 7-day range's first day
  call(second.id, 7, 'failure', 'compound_not_found'); // the day before it
  for (let i = 0; i < 5; i++) call(other.key.id, 0, 'failure', 'compound_not_found');
  await write(url, rows);

  const codes = async (range: 7 | 30) => (await keyReport(db, second, NOW, range)).failureCodes;
  assert.deepEqual(await codes(7), [
    { code: 'compound_not_found', today: 3, range: 5 },
    { code: '(none)', today: 1, range: 1 },
    { code: 'invalid_argument', today: 1, range: 1 },
    { code: 'unit_unknown', today: 0, range: 1 },
  ]);
  assert.deepEqual((await codes(30))[0], { code: 'compound_not_found', today: 3, range: 6 });
  assert.deepEqual(
    (await keyReport(db, other.key, NOW)).failureCodes,
    [{ code: 'compound_not_found', today: 5, range: 5 }],
    'another key counts only its own',
  );

  // Read again after one more failure today: today's counts are never stale.
  rows.length = 0;
  call(second.id, 0, 'failure', 'compound_not_found');
  rows[0].requestId = 'later';
  await write(url, rows);
  assert.deepEqual((await codes(7))[0], { code: 'compound_not_found', today: 4, range: 6 });
});

test("a key's chart starts when its reissue chain's first key was made; the overview speaks from the oldest key's day", async (t) => {
  const { db, ada, bob, actor, issue } = await scratchPortal(t);
  const first = await issue(ada, 'agent');
  await db.apiKey.update({ where: { id: first.key.id }, data: { createdAt: new Date(NOW - 3 * DAY_MS) } });
  const { key: reissued } = await reissueKey(db, first.key.id, actor(ada));
  assert.equal((await keyReport(db, reissued, NOW)).startedOn, daysAgo(3), 'the chain began with its first key');
  const fresh = await issue(bob, 'fresh');
  assert.equal((await keyReport(db, fresh.key, NOW, 90)).startedOn, TODAY);

  const overview = (viewer: typeof ada, range: 7 | 30) => myUsageOverview(db, viewer, range, NOW);
  assert.deepEqual(
    [(await overview(ada, 30)).rangeStart, (await overview(ada, 30)).fromDay],
    [daysAgo(29), daysAgo(3)],
  );
  await db.apiKey.update({ where: { id: first.key.id }, data: { createdAt: new Date(NOW - 40 * DAY_MS) } });
  assert.equal((await overview(ada, 30)).fromDay, daysAgo(29), 'a key older than the range: the range');
  assert.equal((await overview(bob, 7)).fromDay, TODAY);
});
