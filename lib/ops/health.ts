/**
 * GET /api/health: is the database reachable (a trivial query), and Redis in the shared mode (a PING
 * on the limiter's own connection)? Each probe gives up after a short timeout, so a load balancer gets its answer fast. Failures
 * say which dependency failed with a one-line message: no stack, no URL credentials.
 */
import { getDb } from '../db/client.ts';
import { getRedis, lastConnectionError, sharedMode, whenReady } from '../redis/clients.ts';
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

/** PINGs over the shared mode's own command connection: the one the limiter depends on. */
async function pingRedis(): Promise<void> {
  const redis = getRedis();
  try {
    await whenReady(redis);
  } catch {
    throw new Error(`not connected (${lastConnectionError(redis) ?? redis.status})`);
  }
  await redis.ping();
}

export async function checkHealth(): Promise<HealthReport> {
  const [database, redis] = await Promise.all([
    probe('the database', () => getDb().$queryRawUnsafe('SELECT 1')),
    sharedMode() ? probe('Redis', pingRedis) : undefined,
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
