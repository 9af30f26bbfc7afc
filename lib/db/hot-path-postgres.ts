/**
 * HotPathStore on PostgreSQL through a pg pool. Key changes are announced with NOTIFY on the
 * "chemflow_keys" channel inside the changing transaction (lib/keys/store.ts), so a listener here hears
 * of them only once they are committed; each notification, and each reconnect of the listener (when
 * notifications may have been missed), moves keysVersion().
 */
import pg from 'pg';
import { log } from '../ops/log.ts';
import {
  dailyIncrements,
  defaultDeadline,
  FIND_KEY_SQL,
  type HotPathStore,
  type KeyRow,
  lastUsedByKey,
  USED_ON_DAY_SQL,
} from './hot-path.ts';

export const KEY_CHANGES_CHANNEL = 'chemflow_keys';

/** The batch forms of hot-path.ts's row statements: one statement for a whole batch, through unnest. */
const INSERT_CALLS_SQL = `
  INSERT INTO "CallLog" ("requestId", "keyId", "tool", "outcome", "errorCode", "latencyMs", "createdAt")
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::timestamp(3)[])
  ON CONFLICT ("requestId") DO NOTHING
  RETURNING "requestId"`;

/** Groups are unique per (key, day, tool) (dailyIncrements), as one ON CONFLICT statement requires. */
const UPSERT_DAILY_BATCH_SQL = `
  INSERT INTO "DailyUsage" ("keyId", "day", "tool", "successes", "failures", "rateLimited")
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[])
  ON CONFLICT ("keyId", "day", "tool") DO UPDATE SET
    "successes" = "DailyUsage"."successes" + excluded."successes",
    "failures" = "DailyUsage"."failures" + excluded."failures",
    "rateLimited" = "DailyUsage"."rateLimited" + excluded."rateLimited"`;

const TOUCH_KEYS_SQL = `
  UPDATE "ApiKey" k SET "lastUsedAt" = t."at"
    FROM unnest($1::timestamp(3)[], $2::text[]) AS t("at", "id")
   WHERE k."id" = t."id" AND (k."lastUsedAt" IS NULL OR k."lastUsedAt" < t."at")`;
const LISTENER_RETRY_MS = 500;

const PROBE_WRITABLE_SQL = `SELECT pg_is_in_recovery() AS "recovery", current_setting('transaction_read_only') AS "readOnly"`;

/**
 * Bounds on waiting for PostgreSQL, so that a database that stops answering turns /mcp calls into
 * prompt 503s instead of requests hanging until the OS gives up on TCP (minutes). A hot-path statement
 * takes about a millisecond. Each statement's timeout is the time left before the call's deadline
 * (hot-path.ts), but at least PG_MIN_STATEMENT_MS, so a call that spent its time elsewhere (a slow tool,
 * a busy CPU) is not refused by a healthy database; COMMIT keeps PG_QUERY_TIMEOUT_MS, since a COMMIT cut
 * short might still commit, writing the row of a call that was answered 503. Waiting for a new
 * connection is bounded by PG_CONNECT_TIMEOUT_MS on its own (the pool takes no per-call timeout).
 */
const PG_CONNECT_TIMEOUT_MS = 2000;
const PG_QUERY_TIMEOUT_MS = 3000;
const PG_MIN_STATEMENT_MS = 250;

/** A statement whose timeout is the time left before `deadline` (within the bounds above). */
function beforeDeadline(text: string, values: unknown[], deadline: number): pg.QueryConfig {
  const timeout = Math.min(PG_QUERY_TIMEOUT_MS, Math.max(PG_MIN_STATEMENT_MS, deadline - Date.now()));
  return { text, values, query_timeout: timeout } as pg.QueryConfig;
}

/**
 * Prisma's DateTime columns are `timestamp(3)` without time zone, holding UTC. pg would read and write
 * them in the host's local zone, so this store exchanges them as UTC text in and epoch ms out.
 */
const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;
const utcTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP_WITHOUT_TIME_ZONE
      ? (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};
const utcText = (epochMs: number) => new Date(epochMs).toISOString();

export function openPostgresHotPath(url: string): HotPathStore {
  const pool = new pg.Pool({
    connectionString: url,
    max: 8,
    types: utcTypes,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    query_timeout: PG_QUERY_TIMEOUT_MS,
  });
  // The server closing an idle connection (restart, failover) drops it from the pool; unheard, the error would end the process.
  pool.on('error', (error) => log('warn', 'PostgreSQL closed an idle hot-path connection', { error: error.message }));
  let version = 0;
  let closed = false;
  let listener: pg.Client | undefined;

  async function listen(): Promise<void> {
    if (closed) return;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS });
    const retry = () => {
      version++; // notifications may have been missed while disconnected
      client.removeAllListeners();
      client.end().catch(() => {});
      if (!closed) setTimeout(() => void listen(), LISTENER_RETRY_MS).unref();
    };
    try {
      await client.connect();
      client.on('notification', () => version++);
      client.on('error', retry);
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      listener = client;
      version++;
    } catch {
      retry();
    }
  }
  void listen();

  return {
    async findKeyByHash(keyHash, deadline = defaultDeadline()) {
      const { rows } = await pool.query(beforeDeadline(FIND_KEY_SQL, [keyHash], deadline));
      return (rows[0] as KeyRow | undefined) ?? null;
    },
    keysVersion() {
      return version;
    },
    async usedOnDay(lineageId, day, deadline = defaultDeadline()) {
      const { rows } = await pool.query(beforeDeadline(USED_ON_DAY_SQL, [lineageId, day], deadline));
      return Number(rows[0].used);
    },
    async writeCalls(rows, deadline = defaultDeadline()) {
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        await client.query(beforeDeadline('BEGIN', [], deadline));
        // One statement per table however many rows the batch has: each is a round trip, and the
        // transaction holds its connection (and its row locks) for all of them.
        const written = await client.query<{ requestId: string }>(
          beforeDeadline(
            INSERT_CALLS_SQL,
            [
              rows.map((r) => r.requestId),
              rows.map((r) => r.keyId),
              rows.map((r) => r.tool),
              rows.map((r) => r.outcome),
              rows.map((r) => r.errorCode),
              rows.map((r) => r.latencyMs),
              rows.map((r) => utcText(r.createdAt)),
            ],
            deadline,
          ),
        );
        const insertedIds = new Set(written.rows.map((r) => r.requestId));
        // delete() is true once per id, so a row sent twice in the batch counts once, like the insert.
        const inserted = rows.filter((r) => insertedIds.delete(r.requestId));
        const daily = dailyIncrements(inserted);
        if (daily.length) {
          await client.query(
            beforeDeadline(
              UPSERT_DAILY_BATCH_SQL,
              [
                daily.map((g) => g.keyId),
                daily.map((g) => g.day),
                daily.map((g) => g.tool),
                daily.map((g) => g.successes),
                daily.map((g) => g.failures),
                daily.map((g) => g.rateLimited),
              ],
              deadline,
            ),
          );
        }
        const touched = [...lastUsedByKey(inserted)];
        if (touched.length)
          await client.query(
            beforeDeadline(
              TOUCH_KEYS_SQL,
              [touched.map(([, at]) => utcText(at)), touched.map(([keyId]) => keyId)],
              deadline,
            ),
          );
        await client.query('COMMIT');
      } catch (error) {
        failure = error as Error;
        throw error;
      } finally {
        // No ROLLBACK round trip: after a timeout or a reset it would only wait out another timeout.
        // Passing the error makes the pool close the connection, and PostgreSQL rolls back the open
        // transaction of a closed connection; a healthy batch releases its connection for reuse.
        client.release(failure);
      }
    },
    async probeWrites(deadline) {
      // PostgreSQL has no database-wide write lock to probe. What refuses every write is a server in
      // recovery (a standby, e.g. after a failover) or sessions that are read-only by default.
      const { rows } = await pool.query(beforeDeadline(PROBE_WRITABLE_SQL, [], deadline));
      if (rows[0].recovery)
        throw new Error('writes are blocked: the PostgreSQL server is in recovery (a read-only standby)');
      if (rows[0].readOnly === 'on')
        throw new Error('writes are blocked: PostgreSQL transactions are read-only (default_transaction_read_only)');
    },
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
