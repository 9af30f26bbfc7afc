/**
 * For a data migration's test: a scratch database migrated up to just before the named migration, then
 * the fixture's rows (as an installation from before it holds them), then that migration and every
 * later one, each in its own transaction as the migration runner applies them.
 */
import assert from 'node:assert/strict';
import type { DatabaseProvider } from '../../lib/config.ts';
import type { MigrationTarget } from '../../lib/db/migrate.ts';
import { openPostgresMigrationTarget } from '../../lib/db/migrate-postgresql.ts';
import { openSqliteMigrationTarget } from '../../lib/db/migrate-sqlite.ts';
import { readMigrations } from '../../lib/db/migrations.ts';

/** `migration`: its name without the timestamp ("key_lineage"). */
export async function migrateAcross(
  provider: DatabaseProvider,
  url: string,
  migration: string,
  fixtureSql: string,
): Promise<void> {
  const migrations = readMigrations(provider);
  const at = migrations.findIndex((m) => m.name.endsWith(`_${migration}`));
  assert.ok(at > 0, `no ${migration} migration for ${provider}`);
  const target: MigrationTarget =
    provider === 'sqlite' ? await openSqliteMigrationTarget(url) : await openPostgresMigrationTarget(url);
  try {
    for (const step of migrations.slice(0, at)) await target.transaction(() => target.runScript(step.sql));
    await target.transaction(() => target.runScript(fixtureSql));
    for (const step of migrations.slice(at)) await target.transaction(() => target.runScript(step.sql));
  } finally {
    await target.close();
  }
}
