/**
 * Configuration for the Prisma CLI. This project does not need the CLI beyond `prisma generate` (run by
 * scripts/db-generate.ts), but keeps it usable where Prisma can download its engine: with
 * DATABASE_URL set, `npx prisma migrate deploy` and `npx prisma migrate status` pick the schema and the
 * migration history of that URL's provider and agree with lib/db/migrate.ts.
 */
import { defineConfig } from 'prisma/config';
import { databaseProvider, databaseUrl } from './lib/config.ts';
import { migrationsDir } from './lib/db/migrations.ts';
import { POSTGRESQL_SCHEMA_PATH, SCHEMA_PATH } from './lib/db/schema-source.ts';

const url = databaseUrl();
const provider = databaseProvider(url);

export default defineConfig({
  schema: provider === 'postgresql' ? POSTGRESQL_SCHEMA_PATH : SCHEMA_PATH,
  migrations: { path: migrationsDir(provider) },
  datasource: { url },
});
