/** The migration runner's PostgreSQL side (see migrate.ts), on one raw pg connection. */
import pg from 'pg';
import type { HistoryRow, MigrationTarget } from './migrate.ts';

// Prisma's own definition of the table (schema engine, PostgreSQL flavour), so its CLI reads it unchanged.
const CREATE_HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * The advisory lock key Prisma's schema engine takes while migrating: holding the same one keeps this
 * runner, other app instances and `prisma migrate deploy` from migrating the database at the same time.
 */
const PRISMA_MIGRATE_LOCK = 72707369;
/** How long to wait for that lock: another instance may be running a long migration, but not forever. */
const LOCK_WAIT = '60s';
/** SQLSTATE of a lock wait that ran out of lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

interface StoredRow {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
  applied_steps_count: number;
}

export async function openPostgresMigrationTarget(databaseUrl: string): Promise<MigrationTarget> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Session-level: held for the whole run, released when the connection closes.
    await client.query(`SET lock_timeout = '${LOCK_WAIT}'`);
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    await client.query('RESET lock_timeout');
  } catch (error) {
    await client.end();
    if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
    throw new Error(
      `Another session has held Prisma's migration lock on this database (pg_advisory_lock(${PRISMA_MIGRATE_LOCK})) ` +
        `for over ${LOCK_WAIT}. Wait for its migration to finish, or end that session, and retry.`,
    );
  }

  return {
    async transaction(work) {
      await client.query('BEGIN');
      try {
        const result = await work();
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    async createHistoryTable() {
      await client.query(CREATE_HISTORY_TABLE);
    },
    async history() {
      const { rows } = await client.query<StoredRow>('SELECT * FROM "_prisma_migrations" ORDER BY "started_at"');
      return rows.map((row) => ({
        id: row.id,
        checksum: row.checksum,
        migrationName: row.migration_name,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        rolledBackAt: row.rolled_back_at,
        logs: row.logs,
        appliedStepsCount: row.applied_steps_count,
      }));
    },
    async runScript(sql) {
      // Without parameters pg uses the simple query protocol, which runs a multi-statement script as is.
      await client.query(sql);
    },
    async insert(row: HistoryRow) {
      await client.query(
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at",
           "rolled_back_at", "logs", "applied_steps_count") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          row.id,
          row.checksum,
          row.migrationName,
          row.startedAt,
          row.finishedAt,
          row.rolledBackAt,
          row.logs,
          row.appliedStepsCount,
        ],
      );
    },
    async close() {
      await client.end();
    },
  };
}
