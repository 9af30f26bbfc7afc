/**
 * The /mcp hot path's own database access: key lookup by hash, today's consumed quota, and batched
 * usage writes. It uses the drivers directly (better-sqlite3, pg) rather than Prisma: measured on this
 * machine, raw better-sqlite3 does ~35,000 inserts/s and ~200,000 lookups/s against Prisma's ~4,500 and
 * ~6,700 (docs/architecture.md). Tables and columns are the ones prisma/schema.prisma defines; the schema
 * tests cover the round trip (rows written here are read back through Prisma).
 */
import type { CallOutcome } from '../ops/call-labels.ts';

export interface KeyRow {
  id: string;
  /** The allowance the key draws from, shared by every key of its reissue chain (ApiKey.lineageId). */
  lineageId: string;
  ownerId: string;
  tierId: string;
  /** Effective limits: the key's override, else its tier's default. */
  dailyQuota: number;
  ratePerSecond: number;
  expiresAt: number | null;
  disabledAt: number | null;
  /** How it stopped (lib/keys/stop.ts). The free-text reason is not read here: no refusal may show it. */
  stopKind: string | null;
  /** Set when the key was reissued: its successor's id. */
  replacedById: string | null;
  /** When the presented secret stops, if it is one of the key's further secrets (KeySecret); null for its own. */
  secretExpiresAt: number | null;
  /** When and how such a secret was stopped before its expiry (KeySecret.endedHow); null while it works. */
  secretEndedAt: number | null;
  secretEndedHow: string | null;
}

export interface CallRow {
  requestId: string;
  keyId: string;
  /** A catalogue tool name or 'unknown_tool' (lib/ops/call-labels.ts), never the caller's text. */
  tool: string;
  outcome: CallOutcome;
  errorCode: string | null;
  latencyMs: number;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Quota day, "YYYY-MM-DD". */
  day: string;
}

/**
 * How long a tools/call may wait for the database, from its arrival: its key lookup, its quota lookup
 * and the commit of its usage row share this one deadline (epoch ms, passed to each step), so a
 * database that is down or locked turns into a 503 within about 2 s, however the waits add up.
 */
export const CALL_DEADLINE_MS = 2000;

/** Nothing was written or read: the database stayed locked (another connection's write lock) until the deadline. */
/** The code of DatabaseLocked, by which callers recognise it (lib/error-code.ts). */
export const DATABASE_LOCKED = 'database_locked';

export class DatabaseLocked extends Error {
  readonly code = DATABASE_LOCKED;

  constructor(cause: unknown) {
    super(
      `the database stayed locked by another connection until the call's deadline (${(cause as Error)?.message ?? cause})`,
      { cause },
    );
  }
}

/** A call's deadline when the caller gives none (tests, tools): CALL_DEADLINE_MS from now. */
export const defaultDeadline = () => Date.now() + CALL_DEADLINE_MS;

/**
 * Every method that waits for the database takes a deadline (epoch ms) and gives up by then: on SQLite
 * it retries a locked database until the deadline (throwing DatabaseLocked), on PostgreSQL each
 * statement's timeout is the time left.
 */
export interface HotPathStore {
  findKeyByHash(keyHash: string, deadline?: number): Promise<KeyRow | null>;
  /**
   * Changes whenever keys may have been changed by someone else (the portal, the CLI, another
   * instance). Callers cache key rows and drop the cache when this value moves.
   */
  keysVersion(): number;
  /**
   * Quota consumed by an allowance on a day (admitted calls: successes + failures), summed over every
   * key of the lineage, so a reissued key starts from its predecessors' count.
   */
  usedOnDay(lineageId: string, day: string, deadline?: number): Promise<number>;
  /** Writes call rows and their daily aggregates in one transaction; rows already written are skipped. */
  writeCalls(rows: CallRow[], deadline?: number): Promise<void>;
  /**
   * Resolves if the database can take a write now, without writing anything; rejects by the deadline
   * with a message saying why not (for /api/health).
   */
  probeWrites(deadline: number): Promise<void>;
  close(): Promise<void>;
}

const KEY_COLUMNS = `k."id", k."lineageId", k."ownerId", k."tierId",
         COALESCE(k."dailyQuota", t."dailyQuota") AS "dailyQuota",
         COALESCE(k."ratePerSecond", t."ratePerSecond") AS "ratePerSecond",
         k."expiresAt", k."disabledAt", k."stopKind", k."replacedById"`;

/**
 * The key a presented secret belongs to: its own secret (ApiKey.keyHash), or one of its further secrets
 * (KeySecret: OAuth access tokens) with that secret's expiry. One round trip either way; each branch reads
 * one row by a unique index.
 */
export const FIND_KEY_SQL = `
  SELECT ${KEY_COLUMNS}, NULL AS "secretExpiresAt", NULL AS "secretEndedAt", NULL AS "secretEndedHow"
    FROM "ApiKey" k JOIN "Tier" t ON t."id" = k."tierId"
   WHERE k."keyHash" = $1
  UNION ALL
  SELECT ${KEY_COLUMNS}, s."expiresAt" AS "secretExpiresAt", s."endedAt" AS "secretEndedAt",
         s."endedHow" AS "secretEndedHow"
    FROM "KeySecret" s JOIN "ApiKey" k ON k."id" = s."keyId" JOIN "Tier" t ON t."id" = k."tierId"
   WHERE s."hash" = $1`;

/**
 * Runs once per lineage and day (the limiters keep the count from then on). Written as IN (subquery) so
 * the plan reads the lineage's keys by their index and then each key's day by DailyUsage's primary key;
 * as a plain join SQLite chose to scan the whole day's rows of every key.
 */
export const USED_ON_DAY_SQL = `
  SELECT COALESCE(SUM(u."successes" + u."failures"), 0) AS "used"
    FROM "DailyUsage" u
   WHERE u."keyId" IN (SELECT k."id" FROM "ApiKey" k WHERE k."lineageId" = $1) AND u."day" = $2`;

export const INSERT_CALL_SQL = `
  INSERT INTO "CallLog" ("requestId", "keyId", "tool", "outcome", "errorCode", "latencyMs", "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT ("requestId") DO NOTHING`;

export const UPSERT_DAILY_SQL = `
  INSERT INTO "DailyUsage" ("keyId", "day", "tool", "successes", "failures", "rateLimited")
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT ("keyId", "day", "tool") DO UPDATE SET
    "successes" = "DailyUsage"."successes" + excluded."successes",
    "failures" = "DailyUsage"."failures" + excluded."failures",
    "rateLimited" = "DailyUsage"."rateLimited" + excluded."rateLimited"`;

export const TOUCH_KEY_SQL = `
  UPDATE "ApiKey" SET "lastUsedAt" = $1
   WHERE "id" = $2 AND ("lastUsedAt" IS NULL OR "lastUsedAt" < $1)`;

/** Counts per (key, day, tool) for one batch, so each aggregate row is touched once per batch. */
export function dailyIncrements(rows: CallRow[]) {
  const groups = new Map<
    string,
    { keyId: string; day: string; tool: string; successes: number; failures: number; rateLimited: number }
  >();
  for (const row of rows) {
    const id = `${row.keyId}\u0000${row.day}\u0000${row.tool}`;
    let group = groups.get(id);
    if (!group) {
      group = { keyId: row.keyId, day: row.day, tool: row.tool, successes: 0, failures: 0, rateLimited: 0 };
      groups.set(id, group);
    }
    if (row.outcome === 'success') group.successes++;
    else if (row.outcome === 'failure') group.failures++;
    else group.rateLimited++;
  }
  return [...groups.values()];
}

/** Latest call time per key in a batch (for "last used"). */
export function lastUsedByKey(rows: CallRow[]): Map<string, number> {
  const latest = new Map<string, number>();
  for (const row of rows) {
    if (row.outcome === 'rate_limited') continue;
    if ((latest.get(row.keyId) ?? 0) < row.createdAt) latest.set(row.keyId, row.createdAt);
  }
  return latest;
}
