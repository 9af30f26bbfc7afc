/**
 * The server prunes the call log by itself shortly after start: old rows go, recent ones and the
 * daily aggregates stay, it says so in one log line, and SIGTERM still ends the process at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDb } from '../../lib/db/client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

test('the server prunes call-log rows past CALL_LOG_RETENTION_DAYS after start', async (t) => {
  const first = await startTestServer({ CALL_LOG_RETENTION_DAYS: '30' });
  await first.stop({ keepData: true });
  const db = createDb(first.env.DATABASE_URL);
  t.after(() => db.$disconnect());
  const key = await db.apiKey.findFirstOrThrow();
  const now = Date.now();
  await db.callLog.createMany({
    data: [31, 45, 10].map((ageDays, i) => ({
      requestId: `schedule-${i}`,
      keyId: key.id,
      tool: 'service_query_compound',
      outcome: 'success',
      latencyMs: 1,
      createdAt: new Date(now - ageDays * DAY_MS),
    })),
  });
  await db.dailyUsage.create({
    data: { keyId: key.id, day: '2000-01-01', tool: 'service_query_compound', successes: 2 },
  });

  let server: TestServer | undefined;
  t.after(async () => server?.stop());
  server = await startTestServer({}, { restartOf: first });
  const deadline = Date.now() + 60_000;
  while (!server.output().includes('"call log pruned"') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 250));
  const line = server
    .output()
    .split('\n')
    .find((l) => l.includes('"call log pruned"'));
  assert.ok(line, `a "call log pruned" line in:\n${server.output()}`);
  assert.equal(JSON.parse(line).rows, 2);
  assert.deepEqual(
    (await db.callLog.findMany({ select: { requestId: true } })).map((r) => r.requestId),
    ['schedule-2'],
  );
  assert.equal(await db.dailyUsage.count({ where: { day: '2000-01-01' } }), 1);
  assert.equal(await server.stop(), 0, 'SIGTERM ends the process cleanly with the hourly timer set');
});
