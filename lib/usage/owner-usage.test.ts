/**
 * The usage overview's and the CSV export's reads on a real SQLite database, against calls written by the
 * /mcp hot path's own writer: sums per key and per tool over a range of quota days (only the owner's keys,
 * only the range's days), and the call log of a reissue chain as CSV lines, paged, within its bounds.
 */
process.env.KEY_HASH_SECRET = 'o'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import type { CallRow } from '../db/hot-path.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { displayKey } from '../keys/format.ts';
import { reissueKey } from '../keys/store.ts';
import { myUsageOverview } from '../portal/usage-overview.ts';
import { callLogCsvLines, EXPORT_PAGE_ROWS } from './call-log-export.ts';
import { usageByKeyOfOwner, usageByToolOfOwner } from './owner-usage.ts';
import { daysEndingWith } from './queries.ts';

const TODAY = '2026-11-27';
const NOW = Date.parse(`${TODAY}T12:00:00Z`);
const daysAgo = (n: number) => daysEndingWith(TODAY, n + 1)[0];

function callRows() {
  const rows: CallRow[] = [];
  const call = (keyId: string, ago: number, outcome: CallRow['outcome'], tool = 'service_query_compound', ms = 0) =>
    rows.push({
      requestId: `r${rows.length}`,
      keyId,
      tool,
      outcome,
      errorCode: outcome === 'failure' ? 'compound_not_found' : outcome === 'rate_limited' ? 'rate_limited' : null,
      latencyMs: 2.345,
      createdAt: Date.parse(`${daysAgo(ago)}T08:00:00Z`) + ms,
      day: daysAgo(ago),
    });
  return { rows, call };
}

async function write(url: string, rows: CallRow[]) {
  const store = openSqliteHotPath(openSqliteFile(url));
  try {
    await store.writeCalls(rows);
  } finally {
    await store.close();
  }
}

test("an owner's calls are summed per key and per tool over the range's quota days, and no one else's", async (t) => {
  const { url, db, ada, bob, actor, issue } = await scratchPortal(t);
  const laptop = await issue(ada, 'laptop');
  const ci = await issue(ada, 'ci');
  const bobs = await issue(bob, 'bob');
  const { rows, call } = callRows();
  call(laptop.key.id, 0, 'success');
  call(laptop.key.id, 0, 'rate_limited');
  call(laptop.key.id, 6, 'failure', 'service_vapor_pressure'); // the 7-day range's first day
  call(laptop.key.id, 7, 'success'); // one day before it
  call(ci.key.id, 29, 'success', 'service_vapor_pressure'); // the 30-day range's first day
  call(ci.key.id, 30, 'success');
  call(ci.key.id, 89, 'failure');
  call(ci.key.id, 90, 'success'); // outside every range
  call(bobs.key.id, 0, 'success');
  await write(url, rows);

  const week = await usageByKeyOfOwner(db, ada.id, daysAgo(6), TODAY);
  assert.deepEqual(week.get(laptop.key.id), {
    today: { successes: 1, failures: 0, rateLimited: 1 },
    range: { successes: 1, failures: 1, rateLimited: 1 },
  });
  assert.equal(week.has(ci.key.id), false, 'no calls in range: no row');
  assert.equal(week.has(bobs.key.id), false, "another owner's key");

  const month = await usageByKeyOfOwner(db, ada.id, daysAgo(29), TODAY);
  assert.deepEqual(month.get(ci.key.id), {
    today: { successes: 0, failures: 0, rateLimited: 0 },
    range: { successes: 1, failures: 0, rateLimited: 0 },
  });
  assert.deepEqual(await usageByToolOfOwner(db, ada.id, daysAgo(89), TODAY), [
    {
      tool: 'service_query_compound',
      today: { successes: 1, failures: 0, rateLimited: 1 },
      range: { successes: 3, failures: 1, rateLimited: 1 },
    },
    {
      tool: 'service_vapor_pressure',
      today: { successes: 0, failures: 0, rateLimited: 0 },
      range: { successes: 1, failures: 1, rateLimited: 0 },
    },
  ]);

  // The overview counts per key, so a reissued key's new secret has its own row and the totals add up.
  const successor = await reissueKey(db, laptop.key.id, actor(ada));
  await write(url, [{ ...rows[0], requestId: 'after-reissue', keyId: successor.key.id, createdAt: NOW }]);
  const overview = await myUsageOverview(db, ada, 30, NOW);
  assert.deepEqual(
    overview.keys.map((k) => [k.name, k.status, k.today.successes, k.range.successes]),
    [
      ['laptop', 'active', 1, 1],
      ['ci', 'active', 0, 1],
      ['laptop', 'replaced', 1, 2],
    ],
  );
  assert.deepEqual(overview.allKeys, {
    today: { successes: 2, failures: 0, rateLimited: 1 },
    range: { successes: 4, failures: 1, rateLimited: 1 },
  });
  assert.equal(overview.rangeStart, daysAgo(29));
});

test("a chain's call log as CSV: every key of the chain, oldest first, within the bounds, across pages", async (t) => {
  const { url, db, ada, actor, issue } = await scratchPortal(t);
  const first = await issue(ada, 'agent');
  const second = await reissueKey(db, first.key.id, actor(ada));
  const other = await issue(ada, 'other');
  const { rows, call } = callRows();
  call(first.key.id, 3, 'success', 'service_query_compound', -1); // before `since`
  for (let i = 0; i < EXPORT_PAGE_ROWS + 5; i++) call(i % 2 ? second.key.id : first.key.id, 2, 'success', 'x', i);
  call(second.key.id, 1, 'failure');
  call(second.key.id, 1, 'rate_limited', '=cmd|calc', 1); // a hostile label, as an old row might hold
  call(other.key.id, 1, 'success');
  await write(url, rows);

  const since = new Date(`${daysAgo(2)}T08:00:00Z`);
  const chunks: string[] = [];
  for await (const chunk of callLogCsvLines(db, first.key.lineageId, since, new Date(NOW))) chunks.push(chunk);
  assert.ok(chunks.length >= 3, 'header and at least two pages');
  const lines = chunks.join('').split('\r\n');
  assert.equal(lines.pop(), '', 'every line ends with CRLF');
  assert.equal(lines[0], 'time (UTC),tool,outcome,error code,latency ms,key');
  assert.equal(lines.length, 1 + EXPORT_PAGE_ROWS + 5 + 2);
  assert.equal(lines[1], `${daysAgo(2)}T08:00:00.000Z,x,success,,2.3,${displayKey(first.key)}`);
  assert.equal(lines[2], `${daysAgo(2)}T08:00:00.001Z,x,success,,2.3,${displayKey(second.key)}`);
  assert.equal(
    lines.at(-2),
    `${daysAgo(1)}T08:00:00.000Z,service_query_compound,failure,compound_not_found,2.3,${displayKey(second.key)}`,
  );
  assert.equal(
    lines.at(-1),
    `${daysAgo(1)}T08:00:00.001Z,'=cmd|calc,rate_limited,rate_limited,2.3,${displayKey(second.key)}`,
  );
  const times = lines.slice(1).map((l) => l.slice(0, 24));
  assert.deepEqual(times, [...times].sort(), 'oldest first, none twice');
  assert.equal(new Set(lines).size, lines.length);
});
