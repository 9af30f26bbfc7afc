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
import { type AnswerSize, describeAnswer } from './answer.ts';
import { type ExportRun, exportRow, formatExportLoad } from './export-load.ts';
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
  assert.match(formatSummary(summary), /\| 4 \| row 4 \| 3,200 \| 5 ms \| 31 ms \| 300 MB \| 400 µs \| 0 \| – \|/);
  assert.equal(summary.toolsList, null, 'no tools/list answer measured, no tools/list table');
  assert.doesNotMatch(formatSummary(summary), /tools\/list \(row 3\)/);
});

/** An answer as the server writes it: one server-sent event whose data line is the JSON-RPC answer. */
const sse = (message: unknown) => Buffer.from(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

test("an answer's size is its body as sent; a tools/list result's size, tools and per-tool sizes; a tools/call's text", () => {
  const tools = [
    { name: 'small', description: 'é', inputSchema: { type: 'object' } },
    { name: 'large', description: 'x'.repeat(300), inputSchema: { type: 'object' } },
  ];
  const listBody = sse({ result: { tools }, jsonrpc: '2.0', id: 1 });
  const list = describeAnswer(200, 'text/event-stream', listBody);
  assert.equal(list.bytes, listBody.length);
  assert.equal(list.resultBytes, Buffer.byteLength(JSON.stringify({ tools })), 'UTF-8 bytes, not characters');
  assert.equal(list.tools, 2);
  assert.deepEqual(
    list.toolSizes,
    [tools[1], tools[0]].map((t) => ({ name: t.name, bytes: Buffer.byteLength(JSON.stringify(t)) })),
  );

  const value = '{"name":"water"}';
  const call = describeAnswer(
    200,
    'text/event-stream',
    sse({ result: { content: [{ type: 'text', text: value }], structuredContent: JSON.parse(value), isError: false } }),
  );
  assert.equal(call.contentTextBytes, value.length);
  assert.equal(call.tools, undefined);
  assert.equal(call.error, undefined);

  const toolError = describeAnswer(
    200,
    'text/event-stream',
    sse({ result: { content: [{ type: 'text', text: 'Unknown compound' }], isError: true } }),
  );
  assert.equal(toolError.error, 'Unknown compound');
  const rpcError = describeAnswer(200, 'text/event-stream', sse({ error: { code: -32602, message: 'bad' } }));
  assert.deepEqual([rpcError.resultBytes, rpcError.error], [null, 'bad']);
  assert.deepEqual(describeAnswer(200, 'application/json', Buffer.from('ok')), {
    status: 200,
    bytes: 2,
    resultBytes: null,
  });
});

test('the tools/list answer gets a table of its own: bytes, per tool, estimated tokens and its rate', () => {
  const answer: AnswerSize = {
    status: 200,
    bytes: 110_701,
    resultBytes: 110_644,
    tools: 12,
    toolSizes: [
      { name: 'a', bytes: 23_912 },
      { name: 'b', bytes: 13_835 },
      { name: 'c', bytes: 12_500 },
      { name: 'd', bytes: 100 },
    ],
  };
  const summary = summarise([row(3, 391, { id: 'mcp_tools_list', cpuPerRequestUs: 2508, answer }), row(4, 3000)]);
  assert.deepEqual(summary.toolsList, {
    bytes: 110_701,
    resultBytes: 110_644,
    tools: 12,
    bytesPerTool: 9220,
    estimatedTokens: 27_661,
    largest: answer.toolSizes!.slice(0, 3),
    requestsPerSecond: 391,
    cpuPerRequestUs: 2508,
  });
  const text = formatSummary(summary);
  assert.match(text, /\| 3 \| row 3 \| 391 \| .* \| 110,701 B \|/);
  assert.match(text, /\| JSON-RPC result \| 110,644 B \|/);
  assert.match(text, /\| result per tool \| ≈ 9,220 B \|/);
  assert.match(text, /\| largest tools \| a 23,912 B, b 13,835 B, c 12,500 B \|/);
  assert.match(text, /\| ≈ tokens \(result bytes \/ 4, an estimate\) \| ≈ 27,661 \|/);
  assert.match(text, /\| server CPU \/ request \| 2,508 µs \|/);

  const refused = formatSummary(
    summarise([
      row(4, 3000, { answer: { status: 200, bytes: 281, resultBytes: 224, error: 'missing_data' } }),
      row(5, 3000, { answer: { status: 401, bytes: 151, resultBytes: null } }),
    ]),
  );
  assert.match(refused, /\| 281 B \(error\) \|/, 'a row whose answer is an error says so');
  assert.match(refused, /\| 151 B \(status 401\) \|/);
});

test('a row with non-2xx answers, errors or an error answer fails its targets whatever its speed, and a missing row is "not run"', () => {
  const summary = summarise([row(1, 1000), row(2, 1000), row(4, 9000, { non2xx: 3 })]);
  assert.equal(summary.clean, false);
  assert.deepEqual(
    summary.targets.filter((t) => t.name.startsWith('4/')).map((t) => t.status),
    ['missed', 'missed'],
  );
  assert.equal(summary.targets.find((t) => t.name.startsWith('6/2'))!.status, 'not run');
  assert.equal(summary.ratios['6/2'], null);
  assert.equal(summarise([row(1, 1000), row(2, 1000, { errors: 1 }), row(4, 2000)]).targets[0].status, 'missed');
  // A tool error answers 200: the row measured a refusal, not the call it plans.
  const refusing = summarise([
    row(1, 1000),
    row(2, 1000),
    row(4, 9000, { answer: { status: 200, bytes: 281, resultBytes: 224, error: 'missing_data' } }),
  ]);
  assert.equal(refusing.clean, false);
  assert.equal(refusing.targets[0].status, 'missed');
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

test('row 8 is clean only when every export came back whole; its target is /mcp p99 during the exports ≤ 50 ms', () => {
  const latencies = (p99Ms: number) => ({ requests: 400, seconds: 8, p50Ms: 2, p99Ms, maxMs: p99Ms + 5, non2xx: 0 });
  const whole = { status: 200, lines: 1001, bytes: 80_000, seconds: 7.5 };
  const load = (exports: ExportRun[], p99Ms = 30) => ({
    rowsPerExport: 1000,
    exports,
    mcp: latencies(p99Ms),
    ping: latencies(10),
    mcpAlone: latencies(5),
  });
  const target = (result: ReturnType<typeof load>) =>
    summarise([exportRow(result)]).targets.find((t) => t.name.startsWith('8: '))!;

  const row8 = exportRow(load([whole, whole, whole, whole]));
  assert.deepEqual([row8.number, row8.requestsPerSecond, row8.p99Ms, row8.errors], [8, 50, 30, 0]);
  assert.equal(target(load([whole, whole, whole, whole])).status, 'met');
  assert.equal(target(load([whole, whole, whole, whole], 51)).status, 'missed');
  const refused = load([whole, whole, whole, { status: 503, lines: 1, bytes: 120, seconds: 15 }]);
  assert.equal(exportRow(refused).errors, 1);
  assert.equal(target(refused).status, 'missed', 'three exports measure less than four');
  assert.equal(target(load([whole, whole, whole, { ...whole, lines: 700 }])).status, 'missed', 'a cut-short export');
  assert.match(formatExportLoad(refused), /export 4: status 503, 1 lines/);
});
