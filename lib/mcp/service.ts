/**
 * The long-lived parts behind /mcp: the hot-path store, key verifier, key-failure throttle, limiter, usage
 * recorder and the recorder of requests refused for a key that no longer works. One set per process:
 * server.ts builds it before it listens and hands it to its /mcp handler; Next's bundle (/api/health, the
 * portal's actions) loads separate copies of these modules and finds the same set through
 * lib/process-shared.ts, so both share the limiter's counters and the recorder's batches. With REDIS_URL
 * (the shared mode) the limiter's counters and the key-failure counts live in Redis instead, shared by
 * all instances.
 */
import { config, databaseProvider, databaseUrl } from '../config.ts';
import { getDb } from '../db/client.ts';
import type { HotPathStore } from '../db/hot-path.ts';
import { openPostgresHotPath } from '../db/hot-path-postgres.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { createKeyAuthenticator, type KeyAuthenticator } from '../keys/authenticate.ts';
import { createKeyVerifier } from '../keys/verify.ts';
import { attemptCounter } from '../limits/attempt-counter.ts';
import { KeyAuthThrottle } from '../limits/key-auth-throttle.ts';
import type { Limiter } from '../limits/limiter.ts';
import { createMemoryLimiter } from '../limits/memory-limiter.ts';
import { type QuotaDay, quotaDayCalculator } from '../limits/quota-day.ts';
import { createRedisLimiter } from '../limits/redis-limiter.ts';
import { processShared, releaseProcessShared } from '../process-shared.ts';
import { closeRedis, getRedis, redisNames, sharedMode, subscribe, whenReady } from '../redis/clients.ts';
import { createUsageRecorder, type UsageRecorder } from '../usage/recorder.ts';
import { createRefusedCallRecorder, type RefusedCallRecorder } from '../usage/refused-calls.ts';

export interface McpService {
  store: HotPathStore;
  /** Whose key a request carries, or why it is refused (lib/keys/authenticate.ts). */
  authenticateKey: KeyAuthenticator;
  limiter: Limiter;
  recorder: UsageRecorder;
  refusedCalls: RefusedCallRecorder;
  quotaDay: (now: number) => QuotaDay;
}

const SERVICE = 'mcpService';

function openStore(): HotPathStore {
  const url = databaseUrl();
  return databaseProvider(url) === 'postgresql' ? openPostgresHotPath(url) : openSqliteHotPath(openSqliteFile(url));
}

/** The process's service set, built the first time any copy of lib/ asks (server.ts asks before it listens). */
export function getMcpService(): McpService {
  return processShared(SERVICE, buildMcpService);
}

function buildMcpService(): McpService {
  const store = sharedMode() ? withKeyChangesFromRedis(openStore()) : openStore();
  const quotaDay = quotaDayCalculator(config().quotaTimeZone);
  const usedOnDay = (lineageId: string, day: string, deadline?: number) => store.usedOnDay(lineageId, day, deadline);
  const recorder = createUsageRecorder(store);
  return {
    store,
    authenticateKey: createKeyAuthenticator({
      verifyKey: createKeyVerifier(store),
      throttle: new KeyAuthThrottle(
        attemptCounter('key-auth', config().keyAuthMaxFailures, config().keyAuthFailureWindowSeconds * 1000),
      ),
    }),
    limiter: sharedMode()
      ? createRedisLimiter({
          redis: getRedis(),
          prefix: config().redisKeyPrefix,
          quotaDay,
          usedOnDay,
          beforeSeeding: () => recorder.flush(),
          whenReady,
        })
      : createMemoryLimiter({ quotaDay, usedOnDay }),
    recorder,
    // Through Prisma: at most one write a second, so the hot path's raw-SQL store has no part in it.
    refusedCalls: createRefusedCallRecorder(getDb),
    quotaDay,
  };
}

/**
 * Shared mode: key changes published on Redis by any instance (lib/keys/store.ts) move keysVersion, so
 * every verifier drops its cache; so does each (re)subscription, since messages may have been missed.
 * PostgreSQL's NOTIFY keeps moving it too, which carries changes while Redis is away.
 */
function withKeyChangesFromRedis(store: HotPathStore): HotPathStore {
  let moves = 0;
  const bump = () => void moves++;
  subscribe(redisNames.keyChanges(config().redisKeyPrefix), bump, bump);
  return { ...store, keysVersion: () => store.keysVersion() + moves };
}

/** Commits pending usage and closes the store and Redis connections (graceful shutdown, tests). */
export async function closeMcpService(): Promise<void> {
  const service = releaseProcessShared<McpService>(SERVICE);
  if (!service) return;
  await Promise.all([service.recorder.flush(), service.refusedCalls.flush()]);
  await service.store.close();
  await closeRedis();
}
