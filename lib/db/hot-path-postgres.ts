/**
 * HotPathStore on PostgreSQL through a pg pool. Key changes are announced with NOTIFY on the
 * "chemflow_keys" channel inside the changing transaction (lib/keys/store.ts), so a listener here hears
 * of them only once they are committed; each notification, and each reconnect of the listener (when
 * notifications may have been missed), moves keysVersion().
 */
import pg from 'pg';
import { log } from '../ops/log.ts';
import {
  FIND_KEY_SQL, INSERT_CALL_SQL, TOUCH_KEY_SQL, UPSERT_DAILY_SQL, USED_ON_DAY_SQL,
  dailyIncrements, lastUsedByKey,
  type HotPathStore, type KeyRow,
} from './hot-path.ts';

export const KEY_CHANGES_CHANNEL = 'chemflow_keys';
const LISTENER_RETRY_MS = 500;

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
  const pool = new pg.Pool({ connectionString: url, max: 8, types: utcTypes });
  // The server closing an idle connection (restart, failover) drops it from the pool; unheard, the error would end the process.
  pool.on('error', (error) => log('warn', 'PostgreSQL closed an idle hot-path connection', { error: error.message }));
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
      return (rows[0] as KeyRow | undefined) ?? null;
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
          const result = await client.query(INSERT_CALL_SQL, [r.requestId, r.keyId, r.tool, r.outcome, r.errorCode, r.latencyMs, utcText(r.createdAt)]);
          if (result.rowCount === 1) inserted.push(r);
        }
        for (const g of dailyIncrements(inserted)) {
          await client.query(UPSERT_DAILY_SQL, [g.keyId, g.day, g.tool, g.successes, g.failures, g.rateLimited]);
        }
        for (const [keyId, at] of lastUsedByKey(inserted)) await client.query(TOUCH_KEY_SQL, [utcText(at), keyId]);
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
