/**
 * The PostgreSQL migrations against prisma/schema.prisma, in a fresh database per run: a migrated
 * database has every model and field the client expects, and Prisma's schema engine finds nothing in
 * the schema that the migrations lack. Skipped when no PostgreSQL answers, except under CI=true.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { createDb } from '../lib/db/client.ts';
import { migrateDatabase } from '../lib/db/migrate.ts';
import { readSchema, schemaFor } from '../lib/db/schema-source.ts';
import { modelTables } from '../scripts/model-columns.ts';
import { unmigratedChanges } from '../scripts/schema-diff.ts';
import { postgresAvailable, scratchPostgresUrl } from './support/test-databases.ts';

test('a fresh PostgreSQL database migrates to every table and column the client expects', async (t) => {
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  await migrateDatabase(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client
    .query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    )
    .finally(() => client.end());

  const expected = modelTables(createDb(url));
  assert.ok(expected.length > 0, 'the runtime data model lists no models');
  const actual = expected.map(({ model, table }) => ({
    model,
    table,
    columns: rows
      .filter((row) => row.table_name === table)
      .map((row) => row.column_name)
      .sort(),
  }));
  assert.deepEqual(actual, expected);
});

test('the PostgreSQL migrations produce prisma/schema.prisma exactly (no change lacks a migration)', async (t) => {
  if (!(await postgresAvailable(t))) return;
  const missing = await unmigratedChanges('postgresql');
  assert.equal(missing, '', `schema changes without a migration (npm run db:migration:create -- <name>):\n${missing}`);
});

test('the PostgreSQL drift check reports a field added to the schema without a migration', async (t) => {
  if (!(await postgresAvailable(t))) return;
  const source = readSchema().replace(/^model Tier \{$/m, 'model Tier {\n  driftProbe String?');
  const changes = await unmigratedChanges('postgresql', schemaFor('postgresql', { source }));
  assert.match(changes, /ALTER TABLE "Tier" ADD COLUMN\s+"driftProbe" TEXT/);
});
