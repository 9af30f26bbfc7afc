/**
 * The SQLite migrations against prisma/schema.prisma: a migrated database has every model and field the
 * client expects, and Prisma's schema engine finds nothing in the schema that the migrations lack.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createDb } from '../lib/db/client.ts';
import { migrateDatabase } from '../lib/db/migrate.ts';
import { readSchema } from '../lib/db/schema-source.ts';
import { sqliteFilePath } from '../lib/db/sqlite-file.ts';
import { declaredModels, modelTables } from '../scripts/model-columns.ts';
import { unmigratedChanges } from '../scripts/schema-diff.ts';
import { scratchSqliteUrl } from './support/test-databases.ts';

test('the generated client has the models of prisma/schema.prisma (else run npm run db:generate)', (t) => {
  const models = modelTables(createDb(scratchSqliteUrl(t))).map(({ model }) => model);
  assert.deepEqual(models.sort(), declaredModels(readSchema()));
});

test('a fresh SQLite database migrates to every table and column the client expects', async (t) => {
  const url = scratchSqliteUrl(t);
  await migrateDatabase(url);
  const expected = modelTables(createDb(url));
  assert.ok(expected.length > 0, 'the runtime data model lists no models');

  const raw = new Database(sqliteFilePath(url), { readonly: true });
  const actual = expected.map(({ model, table }) => ({
    model,
    table,
    columns: (raw.pragma(`table_info("${table}")`) as { name: string }[]).map((column) => column.name).sort(),
  }));
  raw.close();
  assert.deepEqual(actual, expected);
});

test('the SQLite migrations produce prisma/schema.prisma exactly (no change lacks a migration)', async () => {
  const missing = await unmigratedChanges('sqlite');
  assert.equal(missing, '', `schema changes without a migration (npm run db:migration:create -- <name>):\n${missing}`);
});

test('the SQLite drift check reports a field added to the schema without a migration', async () => {
  const schema = readSchema();
  const withNewField = schema.replace(/^model Tier \{$/m, 'model Tier {\n  driftProbe String?');
  assert.notEqual(withNewField, schema);
  assert.match(await unmigratedChanges('sqlite', withNewField), /ALTER TABLE "Tier" ADD COLUMN "driftProbe" TEXT/);
});
