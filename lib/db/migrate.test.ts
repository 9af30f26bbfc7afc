/**
 * migrateDatabase on both providers: it applies each migration once, keeps Prisma's books in a way
 * Prisma's own engine reads as complete, and refuses edited or failed history.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import pg from 'pg';
import { engineMigrationList, NO_FILTERS, withSchemaEngine } from '../../scripts/schema-engine.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import type { DatabaseProvider } from '../config.ts';
import { migrateDatabase } from './migrate.ts';
import { openSqliteMigrationTarget } from './migrate-sqlite.ts';
import { readMigrations } from './migrations.ts';
import { openSqliteFile } from './sqlite-file.ts';

const PROVIDERS: DatabaseProvider[] = ['sqlite', 'postgresql'];

function scratchUrl(provider: DatabaseProvider, t: TestContext): Promise<string | undefined> {
  return provider === 'sqlite' ? Promise.resolve(scratchSqliteUrl(t)) : scratchPostgresUrl(t);
}

/** Runs SQL on the database with the raw driver, returning the rows of the last statement if any. */
async function rawQuery(url: string, sql: string): Promise<Record<string, unknown>[]> {
  if (url.startsWith('file:')) {
    const db = openSqliteFile(url);
    try {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all() as Record<string, unknown>[];
      statement.run();
      return [];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** What Prisma's schema engine (the one behind `prisma migrate status`) makes of the database's history. */
function prismaDiagnosis(provider: DatabaseProvider, url: string) {
  return withSchemaEngine(
    provider,
    (engine) =>
      engine.diagnoseMigrationHistory({
        migrationsList: engineMigrationList(provider),
        optInToShadowDatabase: false,
        filters: NO_FILTERS,
      }),
    { databaseUrl: url },
  );
}

for (const provider of PROVIDERS) {
  const migrations = readMigrations(provider);
  const names = migrations.map((migration) => migration.name);

  test(`${provider}: migrateDatabase applies every migration once and records it as Prisma does`, async (t) => {
    const url = await scratchUrl(provider, t);
    if (!url) return;

    assert.deepEqual(await migrateDatabase(url), { applied: names });
    assert.deepEqual(await migrateDatabase(url), { applied: [] });

    const rows = await rawQuery(url, 'SELECT * FROM "_prisma_migrations" ORDER BY "migration_name"');
    assert.deepEqual(
      rows.map((row) => row.migration_name),
      names,
    );
    for (const [i, migration] of migrations.entries()) {
      const row = rows[i];
      assert.equal(row.checksum, migration.checksum);
      assert.match(String(row.id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(row.applied_steps_count, 1);
      assert.equal(row.logs, null);
      assert.equal(row.rolled_back_at, null);
      // SQLite: epoch milliseconds, as Prisma stores DateTime there; PostgreSQL: timestamptz.
      assert.equal(typeof row.finished_at, provider === 'sqlite' ? 'number' : 'object');
      assert.ok(row.finished_at !== null);
    }
  });

  test(`${provider}: Prisma's engine reads the history as complete, and agrees when a migration was edited`, async (t) => {
    const url = await scratchUrl(provider, t);
    if (!url) return;
    await migrateDatabase(url);

    const diagnosis = await prismaDiagnosis(provider, url);
    assert.equal(diagnosis.hasMigrationsTable, true);
    assert.deepEqual(diagnosis.failedMigrationNames, []);
    assert.deepEqual(diagnosis.editedMigrationNames, []);
    // In sync: what `prisma migrate status` reports as up to date and `migrate deploy` needs to apply nothing.
    // (Calling the engine's applyMigrations on PostgreSQL would prove the same but leaves a 10 s lock
    // timeout timer behind in the WASM engine, holding the test process open.)
    assert.equal(diagnosis.history, null, 'Prisma sees migrations still to apply');

    const otherChecksum = '0'.repeat(64);
    await rawQuery(
      url,
      `UPDATE "_prisma_migrations" SET "checksum" = '${otherChecksum}' WHERE "migration_name" = '${names[0]}'`,
    );
    assert.deepEqual((await prismaDiagnosis(provider, url)).editedMigrationNames, [names[0]]);
    await assert.rejects(migrateDatabase(url), /was edited after it was applied to this database/);
  });

  test(`${provider}: a failing migration is rolled back, recorded, and blocks later runs until resolved`, async (t) => {
    const url = await scratchUrl(provider, t);
    if (!url) return;
    // The first migration creates "Tier" after other tables; a table of that name already there makes
    // it fail midway.
    await rawQuery(url, 'CREATE TABLE "Tier" ("legacy" INTEGER)');

    await assert.rejects(migrateDatabase(url), new RegExp(`${names[0]} failed, and its transaction was rolled back`));
    assert.deepEqual(await tableNames(url), ['Tier', '_prisma_migrations'], 'the failed migration left tables behind');
    const [row, ...more] = await rawQuery(url, 'SELECT * FROM "_prisma_migrations"');
    assert.equal(more.length, 0);
    assert.equal(row.migration_name, names[0]);
    assert.equal(row.finished_at, null);
    assert.match(String(row.logs), /"Tier" already exists/);
    assert.deepEqual((await prismaDiagnosis(provider, url)).failedMigrationNames, [names[0]]);

    await assert.rejects(migrateDatabase(url), new RegExp(`Migration ${names[0]} failed on .* and is unresolved`));

    // The resolution the error message suggests.
    await rawQuery(url, 'DROP TABLE "Tier"');
    await rawQuery(
      url,
      `UPDATE "_prisma_migrations" SET "rolled_back_at" = "started_at" ` +
        `WHERE "migration_name" = '${names[0]}' AND "finished_at" IS NULL`,
    );
    assert.deepEqual(await migrateDatabase(url), { applied: names });
  });
}

test('sqlite: a migration that rebuilds a referenced table keeps the referencing rows, and orphans are refused', async (t) => {
  const url = scratchSqliteUrl(t);
  const target = openSqliteMigrationTarget(url);
  const count = async (table: string) => (await rawQuery(url, `SELECT count(*) AS n FROM "${table}"`))[0].n;
  try {
    await target.transaction(() =>
      target.runScript(`CREATE TABLE "Parent" ("id" INTEGER PRIMARY KEY);
        CREATE TABLE "Child" ("id" INTEGER PRIMARY KEY, "parentId" INTEGER REFERENCES "Parent" ("id") ON DELETE CASCADE);
        INSERT INTO "Parent" VALUES (1); INSERT INTO "Child" VALUES (1, 1);`),
    );
    // Prisma's SQLite "RedefineTables" pattern, as it generates it for e.g. a column type change.
    await target.transaction(() =>
      target.runScript(`PRAGMA defer_foreign_keys=ON; PRAGMA foreign_keys=OFF;
        CREATE TABLE "new_Parent" ("id" INTEGER PRIMARY KEY, "name" TEXT);
        INSERT INTO "new_Parent" ("id") SELECT "id" FROM "Parent";
        DROP TABLE "Parent"; ALTER TABLE "new_Parent" RENAME TO "Parent";
        PRAGMA foreign_keys=ON; PRAGMA defer_foreign_keys=OFF;`),
    );
    assert.equal(await count('Child'), 1, 'rebuilding the parent table deleted its children');

    await assert.rejects(
      target.transaction(() => target.runScript('DELETE FROM "Parent";')),
      /1 row\(s\) would violate foreign keys, e.g. Child rowid 1 → Parent/,
    );
    assert.equal(await count('Parent'), 1, 'the refused migration was not rolled back');
  } finally {
    await target.close();
  }
});

async function tableNames(url: string): Promise<string[]> {
  const sql = url.startsWith('file:')
    ? "SELECT name FROM sqlite_master WHERE type = 'table'"
    : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'";
  return (await rawQuery(url, sql)).map((row) => String(row.name)).sort();
}
