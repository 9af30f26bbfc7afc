/**
 * Calls a limit refused (429), recorded off the hot path on a real database: counted per key, day and
 * reason and per tool (adding to the hot path's own rows), a bounded sample kept per reason that never
 * pushes out the details of a stopped key's refusals, no call-log row; and the readers (today's table,
 * the trend, the last calls, the CSV export, the stopped-key report) read the counts and the sample.
 */
process.env.KEY_HASH_SECRET = 'l'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { scratchPostgresUrl } from '../../test/support/test-databases.ts';
import { createDb } from '../db/client.ts';
import type { CallRow } from '../db/hot-path.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { displayKey } from '../keys/format.ts';
import { issueKey, reissueKey } from '../keys/store.ts';
import { ensureTiers } from '../portal/first-start.ts';
import { callLogCsvLines, EXPORT_PAGE_ROWS } from './call-log-export.ts';
import { dailyTrend, lastCalls, usageByTool } from './queries.ts';
import {
  createRefusedCallRecorder,
  type LimitReason,
  REFUSED_CALLS_KEPT,
  type RefusedRequest,
} from './refused-calls.ts';
import { refusedReport } from './refused-report.ts';

const DAY = '2026-11-27';
const T0 = Date.parse(`${DAY}T10:00:00Z`);

const limited = (
  keyId: string,
  i: number,
  reason: LimitReason = 'daily_quota',
  tool = 'service_query_compound',
): RefusedRequest => ({
  keyId,
  reason,
  tool,
  requestId: `q${i}`,
  clientAddress: `198.51.100.${i % 250}`,
  at: T0 + i,
  day: DAY,
});

async function writeCalls(url: string, rows: CallRow[]) {
  const store = openSqliteHotPath(openSqliteFile(url));
  try {
    await store.writeCalls(rows);
  } finally {
    await store.close();
  }
}

const admitted = (keyId: string, i: number, outcome: CallRow['outcome'] = 'success'): CallRow => ({
  requestId: `a${i}`,
  keyId,
  tool: 'service_query_compound',
  outcome,
  errorCode: outcome === 'failure' ? 'compound_not_found' : null,
  latencyMs: 1.25,
  createdAt: T0 + i,
  day: DAY,
});

test('429s are counted per reason and per tool beside the admitted calls, with a bounded sample and no call-log row', async (t) => {
  const { url, db, ada, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  await writeCalls(url, [admitted(key.id, 0), admitted(key.id, 1, 'failure')]);
  const recorder = createRefusedCallRecorder(() => db, 60_000);
  for (let i = 10; i < 510; i++) recorder.note(limited(key.id, i, i % 5 ? 'daily_quota' : 'rate_per_second'));
  recorder.note(limited(key.id, 600, 'daily_quota', 'service_vapor_pressure'));
  await recorder.flush();
  // A second write adds to the same rows.
  for (let i = 700; i < 710; i++) recorder.note(limited(key.id, i));
  await recorder.flush();

  assert.deepEqual(await usageByTool(db, key.lineageId, DAY), [
    { tool: 'service_query_compound', successes: 1, failures: 1, rateLimited: 510 },
    { tool: 'service_vapor_pressure', successes: 0, failures: 0, rateLimited: 1 },
  ]);
  assert.deepEqual((await dailyTrend(db, key.lineageId, DAY)).at(-1), {
    day: DAY,
    successes: 1,
    failures: 1,
    rateLimited: 511,
  });
  const perReason = await db.refusedDaily.findMany({ where: { keyId: key.id }, orderBy: { reason: 'asc' } });
  assert.deepEqual(
    perReason.map((d) => [d.reason, d.count, d.lastAt.getTime()]),
    [
      ['daily_quota', 411, T0 + 709],
      ['rate_per_second', 100, T0 + 505],
    ],
  );
  assert.equal(await db.callLog.count(), 2, 'only the admitted calls have call-log rows');
  const sample = await db.refusedCall.findMany({ where: { keyId: key.id }, orderBy: { createdAt: 'desc' } });
  assert.equal(sample.length, 2 * REFUSED_CALLS_KEPT, 'the newest few per reason');
  assert.deepEqual(sample[0], {
    id: sample[0].id,
    keyId: key.id,
    reason: 'daily_quota',
    clientAddress: '198.51.100.209',
    tool: 'service_query_compound',
    requestId: 'q709',
    createdAt: new Date(T0 + 709),
  });

  // The last calls merge the sample with the admitted calls; the stopped-key report leaves 429s out.
  const calls = await lastCalls(db, key.lineageId, 12);
  assert.deepEqual(
    calls.slice(0, 3).map((c) => [c.requestId, c.tool, c.outcome, c.errorCode, c.latencyMs]),
    [
      ['q709', 'service_query_compound', 'rate_limited', 'daily_quota_exceeded', 0],
      ['q708', 'service_query_compound', 'rate_limited', 'daily_quota_exceeded', 0],
      ['q707', 'service_query_compound', 'rate_limited', 'daily_quota_exceeded', 0],
    ],
  );
  assert.equal(calls.length, 12);
  const report = await refusedReport(db, key.id, key.lineageId, DAY);
  assert.deepEqual([report.today, report.total, report.recent.length], [0, 0, 0]);
});

test("a key's 429s never push out the details of requests refused after it stopped working", async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const recorder = createRefusedCallRecorder(() => db, 60_000);
  // Refused while it was disabled, then enabled again and flooded past its rate.
  for (let i = 0; i < 3; i++)
    recorder.note({ keyId: key.id, reason: 'disabled', clientAddress: '203.0.113.7', at: T0 + i, day: DAY });
  await recorder.flush();
  for (let i = 10; i < 100; i++) recorder.note(limited(key.id, i, 'rate_per_second'));
  await recorder.flush();

  const report = await refusedReport(db, key.id, key.lineageId, DAY);
  assert.deepEqual([report.today, report.total], [3, 3]);
  assert.deepEqual(
    report.recent.map((r) => [r.reason, r.at]),
    [2, 1, 0].map((i) => ['disabled', new Date(T0 + i).toISOString()]),
  );
  assert.equal(await db.refusedCall.count({ where: { keyId: key.id, reason: 'rate_per_second' } }), REFUSED_CALLS_KEPT);
});

test('the CSV export places each sampled 429 by time among the admitted calls, across pages and after the last', async (t) => {
  const { url, db, ada, actor, issue } = await scratchPortal(t);
  const first = await issue(ada, 'agent');
  const second = await reissueKey(db, first.key.id, actor(ada));
  // Admitted calls at even milliseconds 0 … 2·(EXPORT_PAGE_ROWS + 4), so the export takes two pages.
  const rows = Array.from({ length: EXPORT_PAGE_ROWS + 5 }, (_, i) =>
    admitted(i % 2 ? second.key.id : first.key.id, 2 * i),
  );
  await writeCalls(url, rows);
  const recorder = createRefusedCallRecorder(() => db, 60_000);
  // One before every call, one inside the first page, one between the pages, one after the last call.
  const insideFirstPage = EXPORT_PAGE_ROWS + 1;
  const refusedAt = [-1, insideFirstPage, 2 * (EXPORT_PAGE_ROWS - 1) + 1, 2 * (EXPORT_PAGE_ROWS + 4) + 7];
  for (const at of refusedAt) recorder.note(limited(at === insideFirstPage ? first.key.id : second.key.id, at));
  recorder.note(limited(second.key.id, -5000)); // before the export's start
  await recorder.flush();

  const chunks: string[] = [];
  for await (const chunk of callLogCsvLines(db, first.key.lineageId, new Date(T0 - 1000), new Date(T0 + 60_000)))
    chunks.push(chunk);
  const lines = chunks.join('').split('\r\n');
  assert.equal(lines.pop(), '');
  assert.equal(lines.length, 1 + EXPORT_PAGE_ROWS + 5 + refusedAt.length);
  const refusedLines = lines.filter((l) => l.includes(',rate_limited,'));
  assert.deepEqual(
    refusedLines,
    refusedAt.map(
      (at) =>
        `${new Date(T0 + at).toISOString()},service_query_compound,rate_limited,daily_quota_exceeded,0,${displayKey(at === insideFirstPage ? first.key : second.key)}`,
    ),
  );
  const times = lines.slice(1).map((l) => l.slice(0, 24));
  assert.deepEqual(times, [...times].sort(), 'oldest first');
});

test('PostgreSQL: 429 counts add to the rows the hot path writes, from two instances', async (t) => {
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  await migrateDatabase(url);
  const db = createDb(url);
  t.after(() => db.$disconnect());
  await ensureTiers(db);
  const owner = await db.user.create({ data: { email: 'pg-limits@example.test' } });
  const { key } = await issueKey(db, { ownerId: owner.id, name: 'pg' }, { label: 'test' });
  await db.dailyUsage.create({ data: { keyId: key.id, day: DAY, tool: 'service_query_compound', successes: 4 } });
  const [one, two] = [createRefusedCallRecorder(() => db, 60_000), createRefusedCallRecorder(() => db, 60_000)];
  for (let i = 0; i < 9; i++) (i % 2 ? one : two).note(limited(key.id, i));
  await Promise.all([one.flush(), two.flush()]);
  assert.deepEqual(await usageByTool(db, key.lineageId, DAY), [
    { tool: 'service_query_compound', successes: 4, failures: 0, rateLimited: 9 },
  ]);
  const [day] = await db.refusedDaily.findMany({ where: { keyId: key.id } });
  assert.deepEqual([day.reason, day.count], ['daily_quota', 9]);
});
