// test-lane: serial (it kills a server under full load and counts what the restart kept)
/**
 * A crash loses no answered call and admits no call beyond a quota, on SQLite and on PostgreSQL.
 * Several keys are loaded with sustained concurrent tools/calls; the server is killed with SIGKILL
 * mid-run, while calls are in flight, and restarted on the same database; the load goes on until every
 * key is refused for its daily quota. Then the usage tables, read directly, must hold a CallLog row for
 * every call answered 200 (before or after the crash) and none for a 429, and show each key admitted
 * exactly its daily quota, CallLog and DailyUsage agreeing. Calls cut off by the kill have an unknown
 * outcome: each may or may not have been committed, and a committed one counts against the quota.
 * Refused calls are counted off the hot path, about once a second: a crash may lose the last second's
 * counts (they bill nobody), so DailyUsage counts at most the 429s answered, and the refusals it samples
 * are 429s that were answered.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createDb } from '../../lib/db/client.ts';
import { refusal } from '../support/mcp-answers.ts';
import { bearer, type McpAnswer, postMcp, toolCall } from '../support/mcp-client.ts';
import { scratchPostgresUrl } from '../support/test-databases.ts';
import { type EnvOverrides, startTestServer, type TestServer } from '../support/test-server.ts';

/** Small quotas, so the whole run stays short; a high per-second limit, so the quota is what binds. */
const DAILY_QUOTAS = [60, 90, 120, 150];
const CLIENTS_PER_KEY = 4;
/** The kill comes once this share of all the quotas has been answered. */
const KILL_AT_SHARE = 0.4;

interface Answer {
  keyId: string;
  status: number;
  requestId: string | null;
  reason?: string;
  afterRestart: boolean;
}

test('SQLite: a kill -9 mid-load loses no answered call and admits no call beyond a quota', async (t) => {
  const servers: TestServer[] = [];
  t.after(() => stopAll(servers));
  await crashUnderLoad({}, servers);
});

test('PostgreSQL: a kill -9 mid-load loses no answered call and admits no call beyond a quota', async (t) => {
  const servers: TestServer[] = [];
  // Registered before the scratch database's cleanup, so the servers let go of it before it is dropped.
  t.after(() => stopAll(servers));
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  // PostgreSQL deployments must share one hash secret (lib/keys/hash.ts); the CLI and the restart get it too.
  await crashUnderLoad({ DATABASE_URL: url, KEY_HASH_SECRET: randomBytes(32).toString('hex') }, servers);
});

/** The restart shares its predecessor's data folder: stopped last to first, the folder goes with the last. */
async function stopAll(servers: TestServer[]): Promise<void> {
  for (const server of servers.reverse()) await server.stop();
}

async function crashUnderLoad(env: EnvOverrides, servers: TestServer[]): Promise<void> {
  const first = await startTestServer(env);
  servers.push(first);
  const keys = DAILY_QUOTAS.map((quota) => {
    const created = first.cli(
      'key',
      'create',
      '--owner',
      first.adminEmail,
      '--daily-quota',
      String(quota),
      '--rps',
      '1000',
      '--json',
    );
    assert.equal(created.status, 0, created.stderr);
    const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };
    return { id, secret: key, quota };
  });

  const answers: Answer[] = [];
  let answered200 = 0;
  const killAt = Math.round(DAILY_QUOTAS.reduce((a, b) => a + b) * KILL_AT_SHARE);
  /** Calls whose connection the kill cut, answer unseen; refused connections to the dead server are not counted. */
  let cutOff = 0;
  let restarted: Promise<TestServer> | undefined;

  function crashAndRestart(): Promise<TestServer> {
    // Sent at once, from inside the load: the other clients' calls are in flight at the server.
    const exit = first.kill('SIGKILL');
    return (async () => {
      assert.equal((await exit).signal, 'SIGKILL', 'the server died of the kill, not of something else');
      const server = await startTestServer({}, { restartOf: first });
      servers.push(server);
      return server;
    })();
  }

  async function client(key: (typeof keys)[number]): Promise<void> {
    let server = first;
    for (;;) {
      let answer: McpAnswer;
      try {
        answer = await postMcp(
          server.mcpUrl,
          toolCall('service_query_compound', { compound_name: 'water' }),
          bearer(key.secret),
        );
      } catch (error) {
        // Only the kill may break a call; anything else is a failure of the run.
        if (!restarted || server !== first) throw error;
        if (causeCode(error) !== 'ECONNREFUSED') cutOff++;
        server = await restarted;
        continue;
      }
      answers.push({
        keyId: key.id,
        status: answer.status,
        requestId: answer.headers.get('x-request-id'),
        reason: refusal(answer).reason,
        afterRestart: server !== first,
      });
      if (answer.status !== 200) return; // a 429 for the daily quota ends this client; anything else fails the checks below
      if (++answered200 >= killAt) restarted ??= crashAndRestart();
    }
  }

  await Promise.all(keys.flatMap((key) => Array.from({ length: CLIENTS_PER_KEY }, () => client(key))));

  const unexpected = answers.filter((a) => a.status !== 200 && !(a.status === 429 && a.reason === 'daily_quota'));
  assert.deepEqual(unexpected, [], 'every answer is a 200 or a 429 for the daily quota');
  assert.ok(cutOff > 0, 'the kill cut calls in flight (else this run did not test a crash mid-load)');
  assert.ok(
    answers.some((a) => a.status === 200 && !a.afterRestart) && answers.some((a) => a.status === 200 && a.afterRestart),
    'calls were answered before and after the crash',
  );

  const db = createDb(first.env.DATABASE_URL);
  try {
    const keyIds = keys.map((k) => k.id);
    const rows = await db.callLog.findMany({
      where: { keyId: { in: keyIds } },
      select: { requestId: true, keyId: true, outcome: true },
    });
    const daily = await db.dailyUsage.findMany({ where: { keyId: { in: keyIds } } });
    const rowById = new Map(rows.map((row) => [row.requestId, row]));

    const unrecorded = answers.filter((a) => {
      const row = a.requestId ? rowById.get(a.requestId) : undefined;
      return a.status === 200 ? row?.keyId !== a.keyId || row.outcome !== 'success' : row !== undefined;
    });
    assert.deepEqual(unrecorded, [], 'every call answered 200 has its CallLog row, and no 429 has one');

    const answeredIds = new Set(answers.map((a) => a.requestId));
    const committedUnanswered = rows.filter((row) => !answeredIds.has(row.requestId));
    assert.ok(
      committedUnanswered.length <= cutOff,
      `${committedUnanswered.length} committed calls went unanswered, more than the ${cutOff} the kill cut off`,
    );

    for (const key of keys) {
      const admittedRows = rows.filter((row) => row.keyId === key.id && row.outcome !== 'rate_limited').length;
      const admittedDaily = daily
        .filter((d) => d.keyId === key.id)
        .reduce((sum, d) => sum + d.successes + d.failures, 0);
      const answered200 = answers.filter((a) => a.keyId === key.id && a.status === 200).length;
      assert.equal(
        admittedRows,
        key.quota,
        `key with quota ${key.quota}: CallLog holds ${admittedRows} admitted calls`,
      );
      assert.equal(
        admittedDaily,
        key.quota,
        `key with quota ${key.quota}: DailyUsage counts ${admittedDaily} admitted calls`,
      );
      assert.ok(answered200 <= key.quota, `key with quota ${key.quota} was answered 200 ${answered200} times`);
      const answered429 = answers.filter((a) => a.keyId === key.id && a.status === 429).length;
      const countedRefused = daily.filter((d) => d.keyId === key.id).reduce((sum, d) => sum + d.rateLimited, 0);
      assert.ok(
        countedRefused <= answered429,
        `key with quota ${key.quota}: DailyUsage counts ${countedRefused} refused calls, ${answered429} were answered 429`,
      );
    }
    const answered429Ids = new Set(answers.filter((a) => a.status === 429).map((a) => a.requestId));
    const sampled = await db.refusedCall.findMany({ where: { keyId: { in: keyIds } }, select: { requestId: true } });
    assert.deepEqual(
      sampled.filter((r) => !answered429Ids.has(r.requestId)),
      [],
      'every sampled refusal is a call answered 429',
    );
  } finally {
    await db.$disconnect();
  }
}

/** The system error code behind a failed fetch (undici wraps it in `cause`). */
function causeCode(error: unknown): string | undefined {
  return ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string }))?.code;
}
