/**
 * Data at scale: fills a migrated database with `keys` API keys (one owner per 10 keys) and `calls`
 * call-log rows spread over the last `days` UTC days, plus the DailyUsage aggregates those rows imply,
 * so the portal's queries can be measured at production-like sizes. Bypasses Prisma for speed: raw
 * better-sqlite3 in large transactions, or multi-row `INSERT … SELECT FROM unnest(…)` over pg.
 *
 * Key popularity is skewed (key i gets calls ∝ the density of u² at i/keys), so a few keys carry tens of
 * thousands of calls: the key detail page's worst case. Outcomes: ~90% success, ~7% failure, ~3%
 * rate-limited. Days are UTC days (QUOTA_TIMEZONE's default).
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import pg from 'pg';
import { chemTools } from '../../lib/chem/tools/index.ts';
import { databaseProvider } from '../../lib/config.ts';
import { openSqliteFile } from '../../lib/db/sqlite-file.ts';
import { generateKey } from '../../lib/keys/format.ts';
import { hashKey } from '../../lib/keys/hash.ts';
import { newRequestId } from '../../lib/usage/request-id.ts';

/** Every tool's name, from the registry: the usage rows spread over all of them. */
export const SCALE_TOOLS = chemTools.map((tool) => tool.name);
const DAY_MS = 86_400_000;
const BATCH = 20_000;
const KEYS_PER_OWNER = 10;

export interface ScaleOptions {
  keys: number;
  calls: number;
  days: number;
  now?: number;
}

export interface ScaleCounts {
  users: number;
  keys: number;
  calls: number;
  dailyUsageRows: number;
}

type Row = unknown[];

/** What the generator needs from a database: bulk inserts into the four tables it fills. */
interface BulkWriter {
  users(rows: Row[]): Promise<void>;
  keys(rows: Row[]): Promise<void>;
  calls(rows: Row[]): Promise<void>;
  daily(rows: Row[]): Promise<void>;
  existingCalls(): Promise<number>;
  /** Drops the secondary indexes of the bulk-loaded tables (rebuilding them once at the end is much faster). */
  dropIndexes(): Promise<void>;
  /** Recreates the dropped indexes from their saved definitions, refreshes statistics, closes. */
  finish(): Promise<void>;
}

const id = () => `c${randomBytes(12).toString('hex')}`;

export async function seedScale(url: string, options: ScaleOptions): Promise<ScaleCounts> {
  const { keys, calls, days } = options;
  const now = options.now ?? Date.now();
  const writer = databaseProvider(url) === 'postgresql' ? await postgresWriter(url) : sqliteWriter(url);
  try {
    if (await writer.existingCalls())
      throw new Error('The database already has call-log rows; seed:scale fills an empty (freshly migrated) database.');
    await writer.dropIndexes();

    const owners = Math.ceil(keys / KEYS_PER_OWNER);
    const ownerIds = Array.from({ length: owners }, id);
    await writer.users(ownerIds.map((userId, i) => [userId, `owner${i}@scale.example`, `Owner ${i}`, now, now]));

    const keyIds = Array.from({ length: keys }, id);
    for (let from = 0; from < keys; from += BATCH) {
      await writer.keys(
        keyIds.slice(from, from + BATCH).map((keyId, j) => {
          const i = from + j;
          const secret = generateKey();
          // Each key its own allowance (lineage), as a key that was never reissued.
          return [
            keyId,
            keyId,
            ownerIds[Math.floor(i / KEYS_PER_OWNER)],
            `scale key ${i}`,
            hashKey(secret),
            secret.slice(3, 7),
            secret.slice(-4),
            i % 5 === 0 ? 'pro' : 'free',
            now - days * DAY_MS,
            now,
          ];
        }),
      );
    }

    // Aggregates per (key, day, tool): successes, failures, rate-limited.
    const tools = SCALE_TOOLS.length;
    const cells = keys * days * tools;
    const successes = new Int32Array(cells);
    const failures = new Int32Array(cells);
    const limited = new Int32Array(cells);
    const today = Math.floor(now / DAY_MS) * DAY_MS;

    for (let from = 0; from < calls; from += BATCH) {
      const rows: Row[] = [];
      for (let n = from; n < Math.min(calls, from + BATCH); n++) {
        const keyIndex = Math.min(keys - 1, Math.floor(keys * Math.random() ** 2));
        const dayIndex = Math.floor(Math.random() * days);
        const dayStart = today - dayIndex * DAY_MS;
        const createdAt =
          dayStart + Math.floor(Math.random() * (dayIndex === 0 ? Math.max(1, now - dayStart) : DAY_MS));
        const toolIndex = Math.floor(Math.random() * Math.random() * tools); // the first tools are the popular ones
        const roll = Math.random();
        const cell = (keyIndex * days + dayIndex) * tools + toolIndex;
        let outcome: string;
        let errorCode: string | null = null;
        if (roll < 0.9) {
          outcome = 'success';
          successes[cell]++;
        } else if (roll < 0.97) {
          outcome = 'failure';
          errorCode = 'not_found';
          failures[cell]++;
        } else {
          outcome = 'rate_limited';
          errorCode = 'rate_limit_exceeded';
          limited[cell]++;
        }
        rows.push([
          newRequestId(createdAt),
          keyIds[keyIndex],
          SCALE_TOOLS[toolIndex],
          outcome,
          errorCode,
          Math.round(Math.random() * 20_000) / 1000,
          createdAt,
        ]);
      }
      await writer.calls(rows);
    }

    let dailyRows = 0;
    let batch: Row[] = [];
    for (let cell = 0; cell < cells; cell++) {
      if (!successes[cell] && !failures[cell] && !limited[cell]) continue;
      const toolIndex = cell % tools;
      const dayIndex = Math.floor(cell / tools) % days;
      const keyIndex = Math.floor(cell / (tools * days));
      const day = new Date(today - dayIndex * DAY_MS).toISOString().slice(0, 10);
      batch.push([keyIds[keyIndex], day, SCALE_TOOLS[toolIndex], successes[cell], failures[cell], limited[cell]]);
      if (batch.length === BATCH) {
        await writer.daily(batch);
        dailyRows += batch.length;
        batch = [];
      }
    }
    if (batch.length) {
      await writer.daily(batch);
      dailyRows += batch.length;
    }
    await writer.finish();
    return { users: owners, keys, calls, dailyUsageRows: dailyRows };
  } catch (error) {
    await writer.finish().catch(() => {});
    throw error;
  }
}

const BULK_TABLES = ['CallLog', 'DailyUsage'];

function sqliteWriter(url: string): BulkWriter {
  const db: Database.Database = openSqliteFile(url);
  // A bulk load into a scratch copy: a large page cache, and no fsync until the end.
  db.exec('PRAGMA cache_size = -262144; PRAGMA synchronous = OFF');
  let dropped: { name: string; sql: string }[] = [];
  const insert = (sql: string) => {
    const statement = db.prepare(sql);
    const many = db.transaction((rows: Row[]) => {
      for (const row of rows) statement.run(row);
    });
    return async (rows: Row[]) => many(rows);
  };
  return {
    users: insert(`INSERT INTO "User" ("id", "email", "name", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)`),
    keys: insert(
      `INSERT INTO "ApiKey" ("id", "lineageId", "ownerId", "name", "keyHash", "start", "end", "tierId", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    calls: insert(
      `INSERT INTO "CallLog" ("requestId", "keyId", "tool", "outcome", "errorCode", "latencyMs", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    daily: insert(
      `INSERT INTO "DailyUsage" ("keyId", "day", "tool", "successes", "failures", "rateLimited") VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    async existingCalls() {
      return Number(db.prepare('SELECT COUNT(*) FROM "CallLog"').pluck().get());
    },
    async dropIndexes() {
      // Only indexes with SQL of their own (the migrations'); SQLite's automatic ones carry none.
      dropped = db
        .prepare(
          `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${BULK_TABLES.map(() => '?').join(', ')})`,
        )
        .all(...BULK_TABLES) as typeof dropped;
      for (const index of dropped) db.exec(`DROP INDEX "${index.name}"`);
    },
    async finish() {
      if (!db.open) return;
      try {
        for (const index of dropped) db.exec(index.sql);
        db.exec('ANALYZE');
      } finally {
        db.close();
      }
    },
  };
}

/** One statement per batch: arrays per column, unnested server-side (no COPY client needed). */
async function postgresWriter(url: string): Promise<BulkWriter> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SET synchronous_commit = off');
  const columns = (rows: Row[], count: number) => Array.from({ length: count }, (_, c) => rows.map((row) => row[c]));
  let open = true;
  let dropped: { indexname: string; indexdef: string }[] = [];
  return {
    async users(rows) {
      await client.query(
        `INSERT INTO "User" ("id", "email", "name", "createdAt", "updatedAt")
        SELECT a, b, c, to_timestamp(d / 1000.0) AT TIME ZONE 'UTC', to_timestamp(e / 1000.0) AT TIME ZONE 'UTC'
          FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[]) AS u(a, b, c, d, e)`,
        columns(rows, 5),
      );
    },
    async keys(rows) {
      await client.query(
        `INSERT INTO "ApiKey" ("id", "lineageId", "ownerId", "name", "keyHash", "start", "end", "tierId", "createdAt", "updatedAt")
        SELECT a, b, c, d, e, f, g, h, to_timestamp(i / 1000.0) AT TIME ZONE 'UTC', to_timestamp(j / 1000.0) AT TIME ZONE 'UTC'
          FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::float8[], $10::float8[]) AS u(a, b, c, d, e, f, g, h, i, j)`,
        columns(rows, 10),
      );
    },
    async calls(rows) {
      await client.query(
        `INSERT INTO "CallLog" ("requestId", "keyId", "tool", "outcome", "errorCode", "latencyMs", "createdAt")
        SELECT a, b, c, d, e, f, to_timestamp(g / 1000.0) AT TIME ZONE 'UTC'
          FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[]) AS u(a, b, c, d, e, f, g)`,
        columns(rows, 7),
      );
    },
    async daily(rows) {
      await client.query(
        `INSERT INTO "DailyUsage" ("keyId", "day", "tool", "successes", "failures", "rateLimited")
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[])`,
        columns(rows, 6),
      );
    },
    async existingCalls() {
      return Number((await client.query('SELECT COUNT(*) AS n FROM "CallLog"')).rows[0].n);
    },
    async dropIndexes() {
      // Secondary indexes only: primary keys stay (DailyUsage's is its identity).
      dropped = (
        await client.query(
          `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
          [BULK_TABLES],
        )
      ).rows;
      for (const index of dropped) await client.query(`DROP INDEX "${index.indexname}"`);
    },
    async finish() {
      if (!open) return;
      open = false;
      try {
        await client.query(`SET maintenance_work_mem = '256MB'`);
        for (const index of dropped) await client.query(index.indexdef);
        await client.query('ANALYZE');
      } finally {
        await client.end();
      }
    },
  };
}
