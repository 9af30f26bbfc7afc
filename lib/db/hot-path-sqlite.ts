/**
 * HotPathStore on the embedded SQLite file: one better-sqlite3 connection, prepared statements,
 * synchronous and fast. `PRAGMA data_version` changes only when *another* connection commits, which is
 * exactly "someone else may have changed a key" (the portal's Prisma connection, the CLI); this
 * connection's own usage writes leave it alone. Its WAL checkpoints run in a worker thread
 * (sqlite-checkpointer.ts).
 */
import Database from 'better-sqlite3';
import {
  FIND_KEY_SQL, INSERT_CALL_SQL, TOUCH_KEY_SQL, UPSERT_DAILY_SQL, USED_ON_DAY_SQL,
  dailyIncrements, lastUsedByKey,
  type CallRow, type HotPathStore, type KeyRow,
} from './hot-path.ts';
import { startCheckpointer } from './sqlite-checkpointer.ts';

/** SQLite binds "$1" as a name; rewrite the shared SQL's numbered parameters to @p1 … for an object bind. */
function sqliteSql(sql: string): string {
  return sql.replace(/\$(\d+)/g, '@p$1');
}

function bind(...values: unknown[]): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  values.forEach((value, i) => (named[`p${i + 1}`] = value));
  return named;
}

/** Takes a connection opened with the shared settings (openSqliteFile) and owns it from then on. */
export function openSqliteHotPath(db: Database.Database): HotPathStore {
  db.pragma('foreign_keys = ON');
  const checkpointer = startCheckpointer(db);

  const findKey = db.prepare(sqliteSql(FIND_KEY_SQL));
  const usedOnDay = db.prepare(sqliteSql(USED_ON_DAY_SQL)).pluck();
  const insertCall = db.prepare(sqliteSql(INSERT_CALL_SQL));
  const upsertDaily = db.prepare(sqliteSql(UPSERT_DAILY_SQL));
  const touchKey = db.prepare(sqliteSql(TOUCH_KEY_SQL));
  const dataVersion = db.prepare('PRAGMA data_version').pluck();

  const writeBatch = db.transaction((rows: CallRow[]) => {
    const inserted = rows.filter(
      (r) => insertCall.run(bind(r.requestId, r.keyId, r.tool, r.outcome, r.errorCode, r.latencyMs, r.createdAt)).changes === 1,
    );
    for (const g of dailyIncrements(inserted)) {
      upsertDaily.run(bind(g.keyId, g.day, g.tool, g.successes, g.failures, g.rateLimited));
    }
    for (const [keyId, at] of lastUsedByKey(inserted)) touchKey.run(bind(at, keyId));
  });

  return {
    async findKeyByHash(keyHash) {
      return (findKey.get(bind(keyHash)) as KeyRow | undefined) ?? null;
    },
    keysVersion() {
      return dataVersion.get() as number;
    },
    async usedOnDay(keyId, day) {
      return Number(usedOnDay.get(bind(keyId, day)));
    },
    async writeCalls(rows) {
      writeBatch(rows);
    },
    async close() {
      await checkpointer.stop();
      db.close();
    },
  };
}
