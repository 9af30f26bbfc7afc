/** A migrated scratch database of either provider, with its client, for tests that run on both. */
import type { TestContext } from 'node:test';
import type { DatabaseProvider } from '../../lib/config.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { migrateDatabase } from '../../lib/db/migrate.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from './test-databases.ts';

/** The client of a fresh, migrated database; undefined when PostgreSQL is wanted and not available (see postgresAvailable). */
export async function migratedScratchDb(t: TestContext, provider: DatabaseProvider): Promise<Db | undefined> {
  let db: Db | undefined;
  t.after(() => db?.$disconnect()); // before the scratch database is dropped
  const url = provider === 'sqlite' ? scratchSqliteUrl(t) : await scratchPostgresUrl(t);
  if (!url) return undefined;
  await migrateDatabase(url);
  db = createDb(url);
  return db;
}
