/** The migration runner's SQLite side (see migrate.ts), on the raw better-sqlite3 driver. */

import type { HistoryRow, MigrationTarget } from './migrate.ts';
import { openSqliteFile } from './sqlite-file.ts';

// Prisma's own definition of the table (schema engine, SQLite flavour), so its CLI reads it unchanged.
const CREATE_HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

interface StoredRow {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: number | string;
  finished_at: number | string | null;
  rolled_back_at: number | string | null;
  logs: string | null;
  applied_steps_count: number;
}

export function openSqliteMigrationTarget(databaseUrl: string): MigrationTarget {
  const db = openSqliteFile(databaseUrl);
  // Prisma's SQLite migrations rebuild a table by copying it and dropping the original. With foreign keys
  // enforced, that DROP would cascade-delete the children's rows, and `PRAGMA foreign_keys=OFF` in the
  // script is ignored inside a transaction. So enforcement is off on this private connection, and each
  // migration is checked with foreign_key_check before it commits.
  db.pragma('foreign_keys = OFF');

  return {
    async transaction(work) {
      // IMMEDIATE takes the write lock up front, so a concurrent migrator waits (busy_timeout) instead
      // of reading a history that is about to change.
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    async createHistoryTable() {
      db.exec(CREATE_HISTORY_TABLE);
    },
    async history() {
      const rows = db.prepare('SELECT * FROM "_prisma_migrations" ORDER BY "started_at"').all() as StoredRow[];
      return rows.map((row) => ({
        id: row.id,
        checksum: row.checksum,
        migrationName: row.migration_name,
        startedAt: toDate(row.started_at),
        finishedAt: row.finished_at === null ? null : toDate(row.finished_at),
        rolledBackAt: row.rolled_back_at === null ? null : toDate(row.rolled_back_at),
        logs: row.logs,
        appliedStepsCount: row.applied_steps_count,
      }));
    },
    async runScript(sql) {
      db.exec(sql);
      const violations = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
      if (violations.length > 0) {
        const { table, rowid, parent } = violations[0];
        throw new Error(
          `${violations.length} row(s) would violate foreign keys, e.g. ${table} rowid ${rowid} → ${parent}`,
        );
      }
    },
    async insert(row: HistoryRow) {
      // Timestamps as epoch milliseconds: how Prisma stores DateTime in SQLite, and this app's format.
      db.prepare(
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at",
           "rolled_back_at", "logs", "applied_steps_count") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        row.id,
        row.checksum,
        row.migrationName,
        row.startedAt.getTime(),
        row.finishedAt?.getTime() ?? null,
        row.rolledBackAt?.getTime() ?? null,
        row.logs,
        row.appliedStepsCount,
      );
    },
    async close() {
      db.close();
    },
  };
}

/**
 * Epoch milliseconds as written here (and by Prisma with this app's adapter settings); rows written by
 * other Prisma setups may hold ISO text, or SQLite's "YYYY-MM-DD HH:MM:SS" (UTC) from the column default.
 */
function toDate(value: number | string): Date {
  if (typeof value === 'number') return new Date(value);
  return new Date(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value) ? `${value.replace(' ', 'T')}Z` : value);
}
