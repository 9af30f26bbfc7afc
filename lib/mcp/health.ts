/**
 * GET /api/health, the readiness check (GET /api/ping is the liveness one): can the database take
 * writes, and in the shared mode does Redis answer a PING on the limiter's own connection? A tools/call
 * needs both (its usage row is committed before it is answered), so a database that answers reads but
 * refuses writes is unavailable. The database probe runs on the /mcp hot path's own connection (see
 * HotPathStore.probeWrites: on SQLite it takes the write lock and lets go, waiting on timers; on
 * PostgreSQL one query asks whether the server is read-only). Each probe gives up after a short
 * timeout, so a load balancer gets its answer fast. Failures say which dependency failed with a
 * one-line message: no stack, no URL credentials.
 */

import { redactUrls } from '../ops/redact.ts';
import { getRedis, lastConnectionError, sharedMode, whenReady } from '../redis/clients.ts';
import { getMcpService } from './service.ts';

const PROBE_TIMEOUT_MS = 1000;

type CheckResult = { status: 'ok'; latencyMs: number } | { status: 'unavailable'; latencyMs: number; message: string };

interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, CheckResult>;
}

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${PROBE_TIMEOUT_MS} ms`)),
      PROBE_TIMEOUT_MS,
    );
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

async function checkHealth(): Promise<HealthReport> {
  const [database, redis] = await Promise.all([
    // Its own deadline ends before the probe's timeout, so a held lock is reported as such, not as silence.
    probe('the database', () => getMcpService().store.probeWrites(Date.now() + PROBE_TIMEOUT_MS - 200)),
    sharedMode() ? probe('Redis', pingRedis) : undefined,
  ]);
  const checks: Record<string, CheckResult> = { database };
  if (redis) checks.redis = redis;
  const ok = Object.values(checks).every((c) => c.status === 'ok');
  return { status: ok ? 'ok' : 'unavailable', checks };
}

export async function healthResponse(): Promise<Response> {
  const report = await checkHealth();
  return Response.json(report, {
    status: report.status === 'ok' ? 200 : 503,
    headers: { 'cache-control': 'no-store' },
  });
}
