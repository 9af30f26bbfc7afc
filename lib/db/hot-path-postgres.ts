/**
 * HotPathStore on PostgreSQL through a pg pool. Key changes are announced with NOTIFY on the
 * "chemflow_keys" channel inside the changing transaction (lib/keys/store.ts), so a listener here hears
 * of them only once they are committed; each notification, and each reconnect of the listener (when
 * notifications may have been missed), moves keysVersion().
 */
import pg from 'pg';
import {
  FIND_KEY_SQL, INSERT_CALL_SQL, TOUCH_KEY_SQL, UPSERT_DAILY_SQL, USED_ON_DAY_SQL,
  dailyIncrements, lastUsedByKey,
  type HotPathStore, type KeyRow,
} from './hot-path.ts';

export const KEY_CHANGES_CHANNEL = 'chemflow_keys';
const LISTENER_RETRY_MS = 500;

function epochMs(value: Date | null): number | null {
  return value === null ? null : value.getTime();
}

export function openPostgresHotPath(url: string): HotPathStore {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  // The server closing an idle connection (restart, failover) drops it from the pool; unheard, the error would end the process.
  pool.on('error', (error) => console.error(JSON.stringify({ level: 'warn', msg: 'PostgreSQL closed an idle hot-path connection', error: error.message })));
  let version = 0;
  let closed = false;
  let listener: pg.Client | undefined;

  async function listen(): Promise<void> {
    if (closed) return;
    const client = new pg.Client({ connectionString: url });
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
    async findKeyByHash(keyHash) {
      const { rows } = await pool.query(FIND_KEY_SQL, [keyHash]);
      if (rows.length === 0) return null;
      const row = rows[0];
      return { ...row, expiresAt: epochMs(row.expiresAt), disabledAt: epochMs(row.disabledAt) } as KeyRow;
    },
    keysVersion() {
      return version;
    },
    async usedOnDay(keyId, day) {
      const { rows } = await pool.query(USED_ON_DAY_SQL, [keyId, day]);
      return Number(rows[0].used);
    },
    async writeCalls(rows) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const inserted = [];
        for (const r of rows) {
          const result = await client.query(INSERT_CALL_SQL, [r.requestId, r.keyId, r.tool, r.outcome, r.errorCode, r.latencyMs, new Date(r.createdAt)]);
          if (result.rowCount === 1) inserted.push(r);
        }
        for (const g of dailyIncrements(inserted)) {
          await client.query(UPSERT_DAILY_SQL, [g.keyId, g.day, g.tool, g.successes, g.failures, g.rateLimited]);
        }
        for (const [keyId, at] of lastUsedByKey(inserted)) await client.query(TOUCH_KEY_SQL, [new Date(at), keyId]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
