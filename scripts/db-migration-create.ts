/**
 * `npm run db:migration:create -- <name>`: after editing prisma/schema.prisma, writes the migration that
 * brings each provider's migration history up to the schema, as
 * prisma/migrations/<provider>/<UTC timestamp>_<name>/migration.sql. The SQL comes from Prisma's schema
 * engine (scripts/schema-diff.ts), never from hand. A provider whose history already matches gets nothing.
 * The PostgreSQL side needs a PostgreSQL server to replay its history in scratch databases.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseProvider } from '../lib/config.ts';
import { lockFileContent, migrationsDir, readMigrations } from '../lib/db/migrations.ts';
import { unmigratedChanges } from './schema-diff.ts';
import { postgresAdminUrl } from './scratch-postgres.ts';

const PROVIDERS: DatabaseProvider[] = ['sqlite', 'postgresql'];

/** Prisma's folder naming: UTC YYYYMMDDHHMMSS, an underscore, the name in snake_case. */
function folderName(name: string, now = new Date()): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!slug) throw new Error('Usage: npm run db:migration:create -- <name>   (e.g. add_key_labels)');
  return `${now.toISOString().replace(/\D/g, '').slice(0, 14)}_${slug}`;
}

async function changesFor(provider: DatabaseProvider): Promise<string> {
  try {
    return await unmigratedChanges(provider);
  } catch (error) {
    const server =
      provider === 'postgresql'
        ? ` on the PostgreSQL server at ${new URL(postgresAdminUrl()).host} (set POSTGRES_ADMIN_URL to use another)`
        : '';
    throw new Error(`${provider}: could not compute the migration${server}: ${(error as Error).message}`);
  }
}

/** Both providers' changes are computed before anything is written, so a failure writes nothing. */
async function main(): Promise<void> {
  const folder = folderName(process.argv.slice(2).join(' '));
  const changes = new Map<DatabaseProvider, string>();
  for (const provider of PROVIDERS) {
    const latest = readMigrations(provider).at(-1)?.name;
    if (latest && latest >= folder) {
      throw new Error(`${provider}: the newest migration ${latest} sorts after ${folder}; check the clock.`);
    }
    changes.set(provider, await changesFor(provider));
  }
  for (const [provider, sql] of changes) {
    if (!sql) {
      console.log(`${provider}: the migrations already match prisma/schema.prisma; nothing written.`);
      continue;
    }
    const dir = migrationsDir(provider);
    fs.mkdirSync(path.join(dir, folder), { recursive: true });
    fs.writeFileSync(path.join(dir, folder, 'migration.sql'), sql);
    const lockPath = path.join(dir, 'migration_lock.toml');
    if (!fs.existsSync(lockPath)) fs.writeFileSync(lockPath, lockFileContent(provider));
    console.log(`${provider}: wrote ${path.relative(process.cwd(), path.join(dir, folder, 'migration.sql'))}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
