/**
 * GET /api/health against the real server: 200 with the database up; 503 while another process holds
 * the SQLite write lock (the database answers reads, but no call could be recorded); 503 naming Redis
 * when REDIS_URL points at a port where nothing listens (and the portal still answers); never the URL's
 * password.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type TestContext, test } from 'node:test';
import Database from 'better-sqlite3';
import { sqliteFilePath } from '../../lib/db/sqlite-file.ts';
import { scratchPostgresUrl } from '../support/test-databases.ts';
import { freePort, startTestServer, type TestServer } from '../support/test-server.ts';

/** The shared mode (REDIS_URL) runs on PostgreSQL only: a server on a fresh PostgreSQL database with this REDIS_URL. */
async function sharedModeServer(t: TestContext, redisUrl: string): Promise<TestServer | undefined> {
  let server: TestServer | undefined;
  // Registered before the scratch database's cleanup, so the server lets go of it before it is dropped.
  t.after(async () => server?.stop());
  const url = await scratchPostgresUrl(t);
  if (!url) return undefined;
  const secret = () => randomBytes(32).toString('hex');
  server = await startTestServer({
    DATABASE_URL: url,
    REDIS_URL: redisUrl,
    KEY_HASH_SECRET: secret(),
    AUTH_SECRET: secret(),
  });
  return server;
}

test('/api/health with the database up', async (t) => {
  const server = await startTestServer();
  t.after(() => server.stop());
  const response = await fetch(`${server.baseUrl}/api/health`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const body = await response.json();
  assert.equal(body.status, 'ok');
  assert.equal(body.checks.database.status, 'ok');
  assert.equal(typeof body.checks.database.latencyMs, 'number');
  assert.equal(body.checks.redis, undefined, 'no Redis check without REDIS_URL');
});

test('/api/health while another process holds the SQLite write lock: 503 until it lets go', async (t) => {
  const server = await startTestServer();
  t.after(() => server.stop());
  const blocker = new Database(sqliteFilePath(server.env.DATABASE_URL!));
  t.after(() => blocker.close());
  blocker.exec('BEGIN IMMEDIATE');
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}/api/health`);
      const body = await response.json();
      assert.equal(response.status, 503, JSON.stringify(body));
      assert.equal(body.status, 'unavailable');
      assert.equal(body.checks.database.status, 'unavailable');
      assert.match(
        body.checks.database.message,
        /writes are blocked: another connection holds the database's write lock/,
      );
      assert.ok(performance.now() - started < 3000, 'the probe gives up within its timeout');
    }
    // The probe waited on timers: the server answered meanwhile.
    const timed = async (path: string, delayMs: number) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const answer = await fetch(`${server.baseUrl}${path}`);
      return { status: answer.status, at: performance.now() };
    };
    const [health, ping] = await Promise.all([timed('/api/health', 0), timed('/api/ping', 200)]);
    assert.equal(health.status, 503);
    assert.equal(ping.status, 200);
    assert.ok(ping.at < health.at, 'the liveness probe answered while the health probe was waiting for the lock');
  } finally {
    blocker.exec('ROLLBACK');
  }
  const after = await fetch(`${server.baseUrl}/api/health`);
  assert.equal(after.status, 200, await after.text());
});

test('/api/health with REDIS_URL pointing at nothing', async (t) => {
  const port = await freePort();
  const server = await sharedModeServer(t, `redis://:health-test-password@127.0.0.1:${port}`);
  if (!server) return;
  for (let attempt = 0; attempt < 2; attempt++) {
    // The second probe meets a client that is already reconnecting in the background: still a fast 503.
    const response: Response = await fetch(`${server.baseUrl}/api/health`);
    const text = await response.text();
    assert.equal(response.status, 503, text);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = JSON.parse(text);
    assert.equal(body.status, 'unavailable');
    assert.equal(body.checks.database.status, 'ok');
    assert.equal(body.checks.redis.status, 'unavailable');
    assert.match(body.checks.redis.message, /ECONNREFUSED/);
    assert.doesNotMatch(text, /health-test-password|\n\s+at /, 'no password, no stack');
  }
  for (const page of ['/', '/docs', '/signin']) {
    const response: Response = await fetch(`${server.baseUrl}${page}`);
    assert.equal(response.status, 200, `${page} still serves`);
  }
  assert.doesNotMatch(server.output(), /health-test-password/);
});

test("/api/health with REDIS_URL pointing at the machine's Redis", async (t) => {
  const server = await sharedModeServer(t, 'redis://127.0.0.1:6379' /* the machine's Redis */);
  if (!server) return;
  const response = await fetch(`${server.baseUrl}/api/health`);
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  assert.equal(body.checks.redis.status, 'ok');
  assert.equal(typeof body.checks.redis.latencyMs, 'number');
});
