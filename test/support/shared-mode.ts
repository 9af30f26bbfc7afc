/**
 * Helpers for tests of the shared mode (PostgreSQL + Redis): the machine's Redis, a key prefix of the
 * test's own that is wiped when the test ends, and the environment of instances sharing both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { scratchPostgresUrl } from './test-databases.ts';
import { type EnvOverrides, startTestServer, type TestServer } from './test-server.ts';

export const MACHINE_REDIS = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether Redis answers at `url`; skips the test (fails under CI=true) when it does not. */
export async function redisAvailable(t: TestContext, url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.quit();
    return true;
  } catch (error) {
    probe.disconnect();
    const reason = `Redis not reachable at ${url}: ${(error as Error).message}`;
    if (process.env.CI === 'true') throw new Error(`${reason}. CI=true requires Redis.`);
    t.skip(reason);
    return false;
  }
}

/** A key prefix no other run uses. */
export function testKeyPrefix(): string {
  return `chemflow-test-${randomBytes(6).toString('hex')}`;
}

/** Deletes every Redis key under `prefix` (hash-tagged `{prefix:…}` or plain `prefix:…`) when the test ends. */
export function cleanUpPrefix(t: TestContext, url: string, prefix: string): void {
  t.after(async () => {
    const redis = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      const keys = [...(await redis.keys(`{${prefix}:*`)), ...(await redis.keys(`${prefix}:*`))];
      if (keys.length) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });
}

/** The environment of instances sharing one PostgreSQL database and one Redis, under a fresh key prefix. */
export function sharedEnv(databaseUrl: string, redisUrl: string) {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: testKeyPrefix(),
    KEY_HASH_SECRET: randomBytes(32).toString('hex'),
    AUTH_SECRET: randomBytes(32).toString('hex'),
  };
}

export interface SharedInstances {
  /** The scratch PostgreSQL database both use. */
  url: string;
  env: ReturnType<typeof sharedEnv> & EnvOverrides;
  a: TestServer;
  b: TestServer;
}

/**
 * Two production servers sharing a fresh PostgreSQL database and the machine's Redis under the test's own
 * key prefix; the second finds the installation migrated and seeded, as a restart would, on its own port.
 * Both are stopped, and the prefix wiped, when the test ends. Undefined when PostgreSQL or Redis is not
 * there (the test is then skipped; under CI=true it fails).
 */
export async function startSharedInstances(
  t: TestContext,
  extraEnv: EnvOverrides = {},
): Promise<SharedInstances | undefined> {
  const servers: TestServer[] = [];
  t.after(async () => {
    for (const server of servers.reverse()) await server.stop();
  });
  const url = await scratchPostgresUrl(t);
  if (!url || !(await redisAvailable(t, MACHINE_REDIS))) return undefined;
  const env = { ...sharedEnv(url, MACHINE_REDIS), ...extraEnv };
  cleanUpPrefix(t, MACHINE_REDIS, env.REDIS_KEY_PREFIX);
  const a = await startTestServer(env);
  servers.push(a);
  const b = await startTestServer({}, { restartOf: a });
  servers.push(b);
  return { url, env, a, b };
}

/** A redis-server of this test's own, without persistence: a restart comes back empty. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) ready();
    });
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  return child;
}

export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}
