/**
 * HotPathStore on the embedded SQLite file: one better-sqlite3 connection, prepared statements,
 * synchronous and fast. `PRAGMA data_version` changes only when *another* connection commits, which is
 * exactly "someone else may have changed a key" (the portal's Prisma connection, the CLI); this
 * connection's own usage writes leave it alone. Its WAL checkpoints run in a worker thread
 * (sqlite-checkpointer.ts).
 *
 * A locked database (another process holding the write lock, or an exclusive lock that blocks reads
 * too) must not freeze the server: SQLite's own busy wait is a synchronous sleep that would stall every
 * request. So this connection waits only briefly inside SQLite and then retries on timers, letting other
 * requests run, until the call's deadline (hot-path.ts); then it throws DatabaseLocked, and /mcp
 * answers 503.
 */
import type Database from 'better-sqlite3';
import { hasErrorCode } from '../error-code.ts';
import {
  type CallRow,
  DATABASE_LOCKED,
  DatabaseLocked,
  dailyIncrements,
  defaultDeadline,
  FIND_KEY_SQL,
  type HotPathStore,
  INSERT_CALL_SQL,
  type KeyRow,
  lastUsedByKey,
  TOUCH_KEY_SQL,
  UPSERT_DAILY_SQL,
  USED_ON_DAY_SQL,
} from './hot-path.ts';
import { startCheckpointer } from './sqlite-checkpointer.ts';

/** The synchronous wait inside SQLite: long enough for another connection's commit to finish. */
const BUSY_TIMEOUT_MS = 10;
const MAX_RETRY_PAUSE_MS = 100;

function isLocked(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * Runs a statement, retrying on timers while the database is locked, until the deadline (the last
 * attempt is at the deadline, never past it by more than one attempt's short busy wait).
 */
async function retryWhileLocked<T>(run: () => T, deadline = defaultDeadline()): Promise<T> {
  for (let pause = 5; ; pause = Math.min(pause * 2, MAX_RETRY_PAUSE_MS)) {
    try {
      return run();
    } catch (error) {
      if (!isLocked(error)) throw error;
      if (Date.now() >= deadline) throw new DatabaseLocked(error);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(pause, deadline - Date.now()))));
  }
}

/** SQLite binds "$1" as a name; rewrite the shared SQL's numbered parameters to @p1 … for an object bind. */
function sqliteSql(sql: string): string {
  return sql.replace(/\$(\d+)/g, '@p$1');
}

function bind(...values: unknown[]): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  values.forEach((value, i) => {
    named[`p${i + 1}`] = value;
  });
  return named;
}

/** Takes a connection opened with the shared settings (openSqliteFile) and owns it from then on. */
export function openSqliteHotPath(db: Database.Database): HotPathStore {
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const checkpointer = startCheckpointer(db);

  const findKey = db.prepare(sqliteSql(FIND_KEY_SQL));
  const usedOnDay = db.prepare(sqliteSql(USED_ON_DAY_SQL)).pluck();
  const insertCall = db.prepare(sqliteSql(INSERT_CALL_SQL));
  const upsertDaily = db.prepare(sqliteSql(UPSERT_DAILY_SQL));
  const touchKey = db.prepare(sqliteSql(TOUCH_KEY_SQL));
  const dataVersion = db.prepare('PRAGMA data_version').pluck();

  const writeBatch = db.transaction((rows: CallRow[]) => {
    const inserted = rows.filter(
      (r) =>
        insertCall.run(bind(r.requestId, r.keyId, r.tool, r.outcome, r.errorCode, r.latencyMs, r.createdAt)).changes ===
        1,
    );
    for (const g of dailyIncrements(inserted)) {
      upsertDaily.run(bind(g.keyId, g.day, g.tool, g.successes, g.failures, g.rateLimited));
    }
    for (const [keyId, at] of lastUsedByKey(inserted)) touchKey.run(bind(at, keyId));
  });

  return {
    async findKeyByHash(keyHash, deadline) {
      return retryWhileLocked(() => (findKey.get(bind(keyHash)) as KeyRow | undefined) ?? null, deadline);
    },
    keysVersion() {
      return dataVersion.get() as number;
    },
    async usedOnDay(lineageId, day, deadline) {
      return retryWhileLocked(() => Number(usedOnDay.get(bind(lineageId, day))), deadline);
    },
    async writeCalls(rows, deadline) {
      // A failed attempt rolled back as a whole (db.transaction), so retrying the batch cannot double it.
      // IMMEDIATE states what its first statement (a write) does anyway: lock first, so no stale snapshot.
      await retryWhileLocked(() => writeBatch.immediate(rows), deadline);
    },
    async probeWrites(deadline) {
      // Takes the write lock and lets go at once: no write, no fsync. Another connection holding it
      // (or an exclusive lock) makes this wait on timers like any hot-path statement, then fail.
      await retryWhileLocked(() => db.exec('BEGIN IMMEDIATE; ROLLBACK'), deadline).catch((error) => {
        throw hasErrorCode(error, DATABASE_LOCKED)
          ? new Error("writes are blocked: another connection holds the database's write lock (SQLITE_BUSY)", {
              cause: error,
            })
          : error;
      });
    },
    async close() {
      await checkpointer.stop();
      db.close();
    },
  };
}
