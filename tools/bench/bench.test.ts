/**
 * The benchmark pieces that could be wrong without anyone noticing: the verdict (ratios, targets, rows
 * full of refusals), the percentile, and the scale seeder's exact counts and consistent aggregates.
 * `npm run bench` itself is not run here: it is a benchmark, minutes long, and asserts no timings.
 */
process.env.KEY_HASH_SECRET = 'b'.repeat(64);

import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { createDb } from '../../lib/db/client.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { combineRounds, type RoundMeasurement } from './load.ts';
import { percentile } from './percentile.ts';
import { prepareScaleDatabase } from './seed-scale.ts';
import { formatSummary, type RowResult, summarise } from './summary.ts';

function row(number: number, requestsPerSecond: number, extra: Partial<RowResult> = {}): RowResult {
  return {
    id: 'mcp_tools_call',
    number,
    label: `row ${number}`,
    requestsPerSecond,
    p50Ms: 5,
    p99Ms: 20,
    peakRssMb: 300,
    cpuPerRequestUs: 400,
    non2xx: 0,
    errors: 0,
    ...extra,
  };
}

test('the summary computes 4/2, 4/1 and 6/2 and marks each target met or missed', () => {
  const summary = summarise([
    row(1, 1000),
    row(2, 4000, { peakRssMb: 900 }),
    row(3, 2000),
    row(4, 3200, { p99Ms: 31 }),
    row(5, 700),
    row(6, 1900, { peakRssMb: 420 }),
  ]);
  assert.deepEqual(summary.ratios, { '4/2': 0.8, '4/1': 3.2, '6/2': 0.48 });
  const status = Object.fromEntries(summary.targets.map((t) => [t.name.split(' ')[0], [t.value, t.status]]));
  assert.deepEqual(status['4/2'], [0.8, 'met']);
  assert.deepEqual(status['4/1'], [3.2, 'met']);
  assert.deepEqual(status.p99, [31, 'missed']);
  assert.deepEqual(
    status.peak,
    [420, 'missed'],
    "the peak is our server's: row 2 (the bare SDK process) does not count",
  );
  assert.deepEqual(status['6/2'], [0.48, 'missed']);
  assert.equal(summary.clean, true);
  assert.match(formatSummary(summary), /\| 4 \| row 4 \| 3,200 \| 5 ms \| 31 ms \| 300 MB \| 400 µs \| 0 \|/);
});

test('a row with non-2xx answers or errors fails its targets whatever its speed, and a missing row is "not run"', () => {
  const summary = summarise([row(1, 1000), row(2, 1000), row(4, 9000, { non2xx: 3 })]);
  assert.equal(summary.clean, false);
  assert.deepEqual(
    summary.targets.filter((t) => t.name.startsWith('4/')).map((t) => t.status),
    ['missed', 'missed'],
  );
  assert.equal(summary.targets.find((t) => t.name.startsWith('6/2'))!.status, 'not run');
  assert.equal(summary.ratios['6/2'], null);
  assert.equal(summarise([row(1, 1000), row(2, 1000, { errors: 1 }), row(4, 2000)]).targets[0].status, 'missed');
});

test('rounds combine into throughput over the whole measured time, median latencies, the highest peak and all refusals', () => {
  const round = (
    requests: number,
    p99Ms: number,
    peakRssMb: number | null,
    extra: Partial<RoundMeasurement> = {},
  ): RoundMeasurement => ({
    requests,
    seconds: 2,
    p50Ms: p99Ms / 2,
    p99Ms,
    peakRssMb,
    serverCpuMs: requests / 4,
    non2xx: 0,
    errors: 0,
    statusCodes: { 200: requests },
    ...extra,
  });
  const combined = combineRounds([
    round(2000, 30, 350),
    round(6000, 10, 380),
    round(4000, 50, null, { non2xx: 5, errors: 1, statusCodes: { 200: 3995, 429: 5 } }),
  ]);
  assert.deepEqual(combined, {
    requestsPerSecond: 2000,
    p50Ms: 15,
    p99Ms: 30,
    peakRssMb: 380,
    cpuPerRequestUs: 250,
    non2xx: 5,
    errors: 1,
    statusCodes: { 200: 11_995, 429: 5 },
  });
  assert.equal(
    combineRounds([round(100, 10, null), round(100, 10, null, { serverCpuMs: null })]).cpuPerRequestUs,
    null,
    'a round without a CPU reading leaves it unknown',
  );
  assert.equal(
    combineRounds([round(100, 10, null), round(100, 20, null)]).p99Ms,
    15,
    'an even count takes the mean of the middle two',
  );
  assert.equal(combineRounds([round(100, 10, null)]).peakRssMb, null);
  assert.throws(() => combineRounds([]), /at least one round/);
});

test('percentile is nearest-rank', () => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.equal(percentile(values, 95), 95);
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile([7], 99), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
});

async function checkSeed(t: TestContext, url: string) {
  const now = Date.now();
  const counts = await prepareScaleDatabase(url, { keys: 50, calls: 5000, days: 30, now });
  const db = createDb(url);
  t.after(() => db.$disconnect());
  assert.equal(await db.apiKey.count(), 50);
  assert.equal(await db.user.count(), 5);
  assert.equal(await db.callLog.count(), 5000);
  assert.equal(await db.dailyUsage.count(), counts.dailyUsageRows);
  assert.deepEqual(counts, { users: 5, keys: 50, calls: 5000, dailyUsageRows: counts.dailyUsageRows });

  const span = await db.callLog.aggregate({ _min: { createdAt: true }, _max: { createdAt: true } });
  assert.ok(span._max.createdAt!.getTime() <= now, 'no call in the future');
  assert.ok(span._min.createdAt!.getTime() >= now - 30 * 86_400_000, 'no call older than 30 days');

  // The aggregates are exactly what the call log implies, per key, day and tool.
  const calls = await db.callLog.findMany({ select: { keyId: true, tool: true, outcome: true, createdAt: true } });
  const expected = new Map<string, [number, number, number]>();
  for (const c of calls) {
    const cell = `${c.keyId}|${c.createdAt.toISOString().slice(0, 10)}|${c.tool}`;
    const sums = expected.get(cell) ?? [0, 0, 0];
    sums[c.outcome === 'success' ? 0 : c.outcome === 'failure' ? 1 : 2]++;
    expected.set(cell, sums);
  }
  const daily = await db.dailyUsage.findMany();
  assert.equal(daily.length, expected.size);
  for (const d of daily)
    assert.deepEqual(
      [d.successes, d.failures, d.rateLimited],
      expected.get(`${d.keyId}|${d.day}|${d.tool}`),
      `${d.keyId} ${d.day} ${d.tool}`,
    );

  // The indexes dropped for the bulk load are all back.
  const indexes = url.startsWith('file:')
    ? await db.$queryRawUnsafe<{ name: string }[]>(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('CallLog', 'DailyUsage') ORDER BY name`,
      )
    : await db.$queryRawUnsafe<{ name: string }[]>(
        `SELECT indexname AS name FROM pg_indexes WHERE tablename IN ('CallLog', 'DailyUsage') AND indexname NOT LIKE '%_pkey' ORDER BY indexname`,
      );
  assert.deepEqual(
    indexes.map((i) => i.name),
    ['CallLog_createdAt_idx', 'CallLog_keyId_createdAt_idx', 'CallLog_requestId_key', 'DailyUsage_day_idx'],
  );

  await assert.rejects(prepareScaleDatabase(url, { keys: 1, calls: 1, days: 1 }), /already has call-log rows/);
}

test('seed:scale writes exactly the asked keys and calls, with matching daily aggregates (SQLite)', async (t) => {
  await checkSeed(t, scratchSqliteUrl(t));
});

test('seed:scale writes exactly the asked keys and calls, with matching daily aggregates (PostgreSQL)', async (t) => {
  const url = await scratchPostgresUrl(t);
  if (url) await checkSeed(t, url);
});
