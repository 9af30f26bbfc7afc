/**
 * Applies the pending migrations of DATABASE_URL's provider, oldest first, keeping Prisma's own books:
 * one `_prisma_migrations` row per migration with Prisma's columns and checksum, so `prisma migrate
 * deploy` and `prisma migrate status` (where Prisma can download its engine) agree with what ran here.
 * Safe to call at every start: with nothing pending it only reads the history.
 *
 * Unlike `prisma migrate deploy`, each migration runs in a transaction together with its history row,
 * so a failed migration leaves no half-applied changes; its failure is still recorded, as Prisma does,
 * and blocks later runs until someone resolves it.
 */
import { randomUUID } from 'node:crypto';
import { databaseProvider } from '../config.ts';
import { openPostgresMigrationTarget } from './migrate-postgresql.ts';
import { openSqliteMigrationTarget } from './migrate-sqlite.ts';
import { type Migration, migrationsDir, readMigrations } from './migrations.ts';

/** One row of Prisma's `_prisma_migrations` table. */
export interface HistoryRow {
  id: string;
  checksum: string;
  migrationName: string;
  startedAt: Date;
  finishedAt: Date | null;
  rolledBackAt: Date | null;
  logs: string | null;
  appliedStepsCount: number;
}

/** What the runner needs from a database; one implementation per provider. */
export interface MigrationTarget {
  /** Runs `work` in a transaction that no other migrator can interleave with. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Creates `_prisma_migrations` if missing; outside any migration's transaction, so it outlives a failed one. */
  createHistoryTable(): Promise<void>;
  history(): Promise<HistoryRow[]>;
  runScript(sql: string): Promise<void>;
  insert(row: HistoryRow): Promise<void>;
  close(): Promise<void>;
}

export async function migrateDatabase(databaseUrl: string): Promise<{ applied: string[] }> {
  const provider = databaseProvider(databaseUrl);
  const migrations = readMigrations(provider);
  if (migrations.length === 0) throw new Error(`No migrations found in ${migrationsDir(provider)}.`);
  const target =
    provider === 'sqlite' ? openSqliteMigrationTarget(databaseUrl) : await openPostgresMigrationTarget(databaseUrl);
  try {
    await target.createHistoryTable();
    const applied: string[] = [];
    for (const migration of migrations) {
      if (await applyIfPending(target, migration, migrations)) applied.push(migration.name);
    }
    return { applied };
  } finally {
    await target.close();
  }
}

/**
 * The history is read inside the migration's transaction, so two processes starting at once cannot
 * both apply the same migration: the second sees the first one's row.
 */
async function applyIfPending(target: MigrationTarget, migration: Migration, all: Migration[]): Promise<boolean> {
  const startedAt = new Date();
  // Only the migration's own SQL failing makes a failed migration; any other error (a refused history,
  // a lost connection) is passed on without a record.
  let scriptError: unknown;
  try {
    return await target.transaction(async () => {
      const history = await target.history();
      refuseUnusableHistory(history, all);
      if (history.some((row) => row.migrationName === migration.name && row.rolledBackAt === null)) return false;
      try {
        await target.runScript(migration.sql);
      } catch (error) {
        scriptError = error;
        throw error;
      }
      await target.insert(historyRow(migration, startedAt, { finishedAt: new Date(), logs: null }));
      return true;
    });
  } catch (error) {
    if (scriptError === undefined) throw error;
    const message = errorMessage(scriptError);
    await target.insert(historyRow(migration, startedAt, { finishedAt: null, logs: message }));
    throw new Error(
      `Migration ${migration.name} failed, and its transaction was rolled back: ${message}\n` +
        `Fix the cause (the database's state, or the migration's SQL: it never applied, so it may still be ` +
        `edited), then ${resolveHint(migration.name)}`,
    );
  }
}

function historyRow(
  migration: Migration,
  startedAt: Date,
  outcome: { finishedAt: Date | null; logs: string | null },
): HistoryRow {
  return {
    id: randomUUID(),
    checksum: migration.checksum,
    migrationName: migration.name,
    startedAt,
    finishedAt: outcome.finishedAt,
    rolledBackAt: null,
    logs: outcome.logs,
    // Prisma counts a migration script as one step; it stays 0 when the script failed.
    appliedStepsCount: outcome.finishedAt ? 1 : 0,
  };
}

/** Prisma's rules: a failed migration blocks everything; an applied migration must not change. */
function refuseUnusableHistory(history: HistoryRow[], migrations: Migration[]): void {
  const live = history.filter((row) => row.rolledBackAt === null);
  const failed = live.find((row) => row.finishedAt === null);
  if (failed) {
    throw new Error(
      `Migration ${failed.migrationName} failed on ${failed.startedAt.toISOString()} and is unresolved, ` +
        `so no migration is applied.\n${failed.logs ?? '(no log)'}\n` +
        'A failure recorded by this app was rolled back; one recorded by `prisma migrate deploy` may have ' +
        `left partial changes to undo by hand. Then ${resolveHint(failed.migrationName)}`,
    );
  }
  const local = new Map(migrations.map((migration) => [migration.name, migration.checksum]));
  for (const row of live) {
    const checksum = local.get(row.migrationName);
    if (checksum !== undefined && checksum !== row.checksum) {
      throw new Error(
        `Migration ${row.migrationName} was edited after it was applied to this database ` +
          `(checksum ${row.checksum} when applied, ${checksum} now). Restore the applied version and put the ` +
          'change in a new migration: npm run db:migration:create -- <name>',
      );
    }
  }
}

function resolveHint(name: string): string {
  return (
    `mark the failure resolved and start again: run \`UPDATE "_prisma_migrations" SET "rolled_back_at" = ` +
    `"started_at" WHERE "migration_name" = '${name}' AND "finished_at" IS NULL;\` ` +
    `(or \`npx prisma migrate resolve --rolled-back ${name}\`).`
  );
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
