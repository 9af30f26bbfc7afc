// test-lane: serial (its 503s must come within seconds of a cut)
/**
 * The database going away, or being locked by someone else, must not hang /mcp or let a call through
 * unrecorded: the production server answers 503 with a §2.6 JSON body within a few seconds, keeps
 * answering what needs no database (initialize, tools/list) meanwhile, records nothing for the refused
 * calls, and works again by itself once the database is back.
 * - SQLite: another connection holds the write lock. (Readers are never blocked in WAL mode, and an
 *   open file cannot vanish from under its connections, so a failing read is the PostgreSQL case.)
 * - PostgreSQL, through a TCP proxy (the shared PostgreSQL server keeps running): connections cut, then
 *   a database that stops answering without closing anything.
 * The portal's side (the friendly error page) is e2e/database-outage.test.ts.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { sqliteFilePath } from '../../lib/db/sqlite-file.ts';
import { toolListing } from '../../lib/mcp/registry.ts';
import { errorBody, listedTools } from '../support/mcp-answers.ts';
import { bearer, type McpAnswer, postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { startServerBehindProxy } from '../support/tcp-proxy.ts';
import { runCli, startTestServer, type TestServer } from '../support/test-server.ts';

/**
 * "A few seconds" on PostgreSQL: a new connection may take 2 s on top of the call's 2 s deadline, and a
 * COMMIT keeps its own 3 s (lib/db/hot-path-postgres.ts).
 */
const PROMPT_MS = 8000;
/**
 * SQLite: one 2 s deadline per call covers key lookup, quota lookup and usage commit (lib/db/hot-path.ts);
 * 3 s is a wide margin. (Before, a call queued behind a failing commit batch waited for it, then for its
 * own batch: ~4.2 s.)
 */
const SQLITE_PROMPT_MS = 3000;

const QUERY_ETHANOL = () => toolCall('service_query_compound', { compound_name: 'ethanol' });

/** A key from the operator CLI, run against `databaseUrl` (default: the server's own database). */
function createKey(server: TestServer, databaseUrl = server.env.DATABASE_URL): string {
  // Not through the proxy: the CLI runs synchronously, and the proxy lives in this process's event loop.
  const created = runCli({ ...server.env, DATABASE_URL: databaseUrl }, [
    'key',
    'create',
    '--owner',
    server.adminEmail,
    '--rps',
    '100',
    '--json',
  ]);
  assert.equal(created.status, 0, created.stderr);
  return JSON.parse(created.stdout).key;
}

/** A tools/call, with how long its answer took. */
async function timedCall(server: TestServer, key: string): Promise<McpAnswer & { ms: number }> {
  const started = performance.now();
  const answer = await postMcp(server.mcpUrl, QUERY_ETHANOL(), bearer(key));
  return { ...answer, ms: performance.now() - started };
}

function assertPrompt503(
  answer: McpAnswer & { ms: number },
  errors: string[],
  what: string,
  withinMs = PROMPT_MS,
): void {
  assert.equal(answer.status, 503, `${what}: ${answer.text}`);
  assert.ok(
    errors.includes(errorBody(answer).error),
    `${what}: error ${errorBody(answer).error}, expected one of ${errors.join(', ')}`,
  );
  assert.match(errorBody(answer).message, /retry/);
  assert.equal(answer.headers.get('retry-after'), '1');
  assert.ok(answer.ms < withinMs, `${what}: answered after ${Math.round(answer.ms)} ms`);
  assert.doesNotMatch(answer.text, /SQLITE|ECONN|Error:|\n\s+at /, 'no internals in the body');
}

/** Calls until one answers 200 (the pool or listener may need a moment to reconnect), at most ~15 s. */
async function callUntilAnswered(server: TestServer, key: string): Promise<McpAnswer> {
  let answer: McpAnswer | undefined;
  for (let attempt = 0; attempt < 30; attempt++) {
    answer = await postMcp(server.mcpUrl, QUERY_ETHANOL(), bearer(key));
    if (answer.status === 200) return answer;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  assert.fail(`no 200 after the database came back; last answer ${answer!.status} ${answer!.text}`);
}

async function health(server: TestServer): Promise<number> {
  return (await fetch(`${server.baseUrl}/api/health`)).status;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends tools/list while `slow` is still pending, and checks it was answered before `slow` was. */
async function discoveryAnswersWhile(server: TestServer, slow: Promise<unknown>): Promise<void> {
  let slowSettled = false;
  void slow.finally(() => (slowSettled = true));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const listed = await postMcp(server.mcpUrl, rpc('tools/list', {}));
  assert.equal(listed.status, 200);
  assert.equal(listedTools(listed).length, toolListing.length);
  assert.equal(
    slowSettled,
    false,
    'tools/list was answered while the waiting call was still waiting: the server is not frozen',
  );
}

test('SQLite: a database locked by another connection', async (t) => {
  const server = await startTestServer();
  t.after(() => server.stop());
  const warm = createKey(server);
  const fresh = createKey(server);
  const first = await postMcp(server.mcpUrl, QUERY_ETHANOL(), bearer(warm));
  assert.equal(first.status, 200);
  const answered = [first.headers.get('x-request-id')!];
  const blocker = new Database(sqliteFilePath(server.env.DATABASE_URL!));
  t.after(() => blocker.close());

  await t.test(
    'a held write lock: each call answers 503 within its deadline, discovery answers meanwhile, health says writes are blocked',
    async () => {
      blocker.exec('BEGIN IMMEDIATE');
      try {
        // Concurrent calls arriving at different times, so later ones queue behind a commit batch that
        // is still waiting for the lock. The new key's first call is looked up and its quota read (reads
        // work under a write lock), but its usage row cannot be written either.
        const calls = [0, 250, 500, 750, 1000, 1250].map(async (delayMs, i) => {
          await sleep(delayMs);
          return timedCall(server, i % 2 ? fresh : warm);
        });
        await discoveryAnswersWhile(server, calls[0]);
        const [answers, healthWhileLocked] = await Promise.all([
          Promise.all(calls),
          fetch(`${server.baseUrl}/api/health`),
        ]);
        answers.forEach((answer, i) => {
          assertPrompt503(answer, ['usage_store_unavailable'], `write-locked call ${i}`, SQLITE_PROMPT_MS);
        });
        const report = await healthWhileLocked.json();
        assert.equal(healthWhileLocked.status, 503, 'no call can be recorded, so the instance is not ready');
        assert.equal(report.checks.database.status, 'unavailable');
        assert.match(report.checks.database.message, /writes are blocked/);
      } finally {
        blocker.exec('ROLLBACK');
      }
      answered.push((await callUntilAnswered(server, fresh)).headers.get('x-request-id')!);
      assert.equal(await health(server), 200);
    },
  );

  await t.test('the usage tables hold exactly the answered calls: none of the refused ones', () => {
    const rows = blocker.prepare('SELECT "requestId" FROM "CallLog" ORDER BY "createdAt"').pluck().all() as string[];
    assert.equal(rows.length, 2, `expected the first call and the one after recovery, got ${rows.length}`);
    for (const id of answered) assert.ok(rows.includes(id), `answered call ${id} is recorded`);
  });
});

test('PostgreSQL: the database goes away and comes back', async (t: TestContext) => {
  const started = await startServerBehindProxy(t);
  if (!started) return;
  const { server: live, proxy, directUrl: url } = started;
  const keys = Array.from({ length: 3 }, () => createKey(live, url));
  const answered: string[] = [];
  answered.push((await callUntilAnswered(live, keys[0])).headers.get('x-request-id')!);

  await t.test(
    'connections cut: calls answer 503 promptly, discovery keeps answering, health says unavailable',
    async () => {
      proxy.cut();
      try {
        const call = timedCall(live, keys[1]);
        await postMcp(live.mcpUrl, rpc('tools/list', {})).then((listed) => assert.equal(listed.status, 200));
        assertPrompt503(await call, ['database_unavailable'], 'cut, uncached key');
        assertPrompt503(
          await timedCall(live, keys[0]),
          ['database_unavailable', 'usage_store_unavailable'],
          'cut, used key',
        );
        assert.equal(await health(live), 503);
      } finally {
        proxy.restore();
      }
      answered.push((await callUntilAnswered(live, keys[1])).headers.get('x-request-id')!);
      assert.equal(await health(live), 200);
    },
  );

  await t.test(
    'a database that stops answering: calls still answer 503 within seconds, and discovery answers meanwhile',
    async () => {
      proxy.stall();
      try {
        const call = timedCall(live, keys[2]);
        await discoveryAnswersWhile(live, call);
        assertPrompt503(await call, ['database_unavailable'], 'stalled, uncached key');
        assertPrompt503(
          await timedCall(live, keys[0]),
          ['database_unavailable', 'usage_store_unavailable'],
          'stalled, used key',
        );
      } finally {
        proxy.restore();
      }
      answered.push((await callUntilAnswered(live, keys[2])).headers.get('x-request-id')!);
      answered.push((await callUntilAnswered(live, keys[0])).headers.get('x-request-id')!);
    },
  );

  await t.test('the usage tables hold exactly the answered calls: none of the refused ones', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ requestId: string }>('SELECT "requestId" FROM "CallLog"');
      assert.deepEqual(rows.map((r) => r.requestId).sort(), [...answered].sort());
      const daily = await client.query<{ calls: string }>(
        'SELECT SUM("successes" + "failures") AS calls FROM "DailyUsage"',
      );
      assert.equal(Number(daily.rows[0].calls), answered.length);
    } finally {
      await client.end();
    }
  });
});
