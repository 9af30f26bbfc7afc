/**
 * `npm run db:migrate`: applies pending migrations to DATABASE_URL (default file:./data/chemflow.db).
 * The server also does this at every start (server.ts); this is for doing it ahead of a start.
 */

import { databaseProvider, databaseUrl } from '../lib/config.ts';
import { migrateDatabase } from '../lib/db/migrate.ts';

async function main(): Promise<void> {
  const url = databaseUrl();
  const { applied } = await migrateDatabase(url);
  // A PostgreSQL URL may carry a password: name only host and database.
  const where = databaseProvider(url) === 'sqlite' ? url : `PostgreSQL at ${new URL(url).host}${new URL(url).pathname}`;
  console.log(applied.length ? `Applied to ${where}:\n  ${applied.join('\n  ')}` : `${where} is up to date.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
