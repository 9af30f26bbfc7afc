/**
 * GET /api/health: is the database reachable (a trivial query), and Redis when REDIS_URL is set (a
 * PING)? Each probe gives up after a short timeout, so a load balancer gets its answer fast. Failures
 * say which dependency failed with a one-line message: no stack, no URL credentials.
 */
import { Redis } from 'ioredis';
import { getDb } from '../db/client.ts';
import { redactUrls } from './log.ts';

export const PROBE_TIMEOUT_MS = 1000;

export type CheckResult = { status: 'ok'; latencyMs: number } | { status: 'unavailable'; latencyMs: number; message: string };

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, CheckResult>;
}

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function probe(what: string, work: () => Promise<unknown>): Promise<CheckResult> {
  const started = performance.now();
  const latencyMs = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    await withTimeout(work(), what);
    return { status: 'ok', latencyMs: latencyMs() };
  } catch (error) {
    const message = redactUrls(((error as Error)?.message ?? String(error)).split('\n', 1)[0]);
    return { status: 'unavailable', latencyMs: latencyMs(), message };
  }
}

const REDIS = Symbol.for('chemflow.health.redis');
interface RedisProbe {
  url: string;
  client: Redis;
  /** The latest connection error, to say why Redis is unreachable rather than just that it is. */
  lastError?: string;
}
type Holder = { [REDIS]?: RedisProbe };

/**
 * The probe's own small client, created on first use and kept on globalThis (one per process, whichever
 * copy of this module asks). Commands fail at once while it is disconnected rather than queue, so a
 * Redis outage is reported within the timeout; ioredis keeps reconnecting in the background.
 */
function redisProbe(url: string): RedisProbe {
  const holder = globalThis as Holder;
  if (holder[REDIS]?.url !== url) {
    const client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: PROBE_TIMEOUT_MS,
      connectionName: 'chemflow-health',
    });
    const probe: RedisProbe = { url, client };
    // Kept for the report; without a listener ioredis would also print every failed retry.
    client.on('error', (error: Error) => (probe.lastError = error.message));
    client.on('ready', () => (probe.lastError = undefined));
    holder[REDIS] = probe;
  }
  return holder[REDIS]!;
}

async function pingRedis(url: string): Promise<void> {
  const probe = redisProbe(url);
  if (probe.client.status === 'wait') await probe.client.connect().catch(() => {});
  if (probe.client.status !== 'ready') throw new Error(`not connected (${probe.lastError ?? probe.client.status})`);
  await probe.client.ping();
}

export async function checkHealth(): Promise<HealthReport> {
  const redisUrl = process.env.REDIS_URL;
  const [database, redis] = await Promise.all([
    probe('the database', () => getDb().$queryRawUnsafe('SELECT 1')),
    redisUrl ? probe('Redis', () => pingRedis(redisUrl)) : undefined,
  ]);
  const checks: Record<string, CheckResult> = { database };
  if (redis) checks.redis = redis;
  const ok = Object.values(checks).every((c) => c.status === 'ok');
  return { status: ok ? 'ok' : 'unavailable', checks };
}

export async function healthResponse(): Promise<Response> {
  const report = await checkHealth();
  return Response.json(report, { status: report.status === 'ok' ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}
