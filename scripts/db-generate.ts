/**
 * `npm run db:generate` (also run by `npm install` through "postinstall"): generates the Prisma client
 * for SQLite (lib/db/generated/sqlite) and for PostgreSQL (lib/db/generated/postgresql) from the one
 * prisma/schema.prisma. The PostgreSQL schema is derived from it (lib/db/schema-source.ts) and written
 * to lib/db/generated/postgresql.prisma, where `prisma migrate deploy` can also find it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { POSTGRESQL_SCHEMA_PATH, SCHEMA_PATH, schemaFor } from '../lib/db/schema-source.ts';
import { PROJECT_ROOT } from '../lib/project-root.ts';

const PRISMA_CLI = fileURLToPath(import.meta.resolve('prisma/build/index.js'));
const DERIVED_NOTICE =
  '// Generated from prisma/schema.prisma by scripts/db-generate.ts. Edit that file, not this one.\n\n';

function prismaGenerate(schemaPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PRISMA_CLI, 'generate', '--schema', schemaPath], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      // Generation needs no native engine, but the CLI first checks that the schema engine binary exists
      // and downloads it if not, which fails offline. Pointing it at any existing file (node itself)
      // skips the download; nothing ever runs it.
      // CHECKPOINT_DISABLE stops the CLI's update check, a network call.
      env: {
        ...process.env,
        PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
        CHECKPOINT_DISABLE: '1',
      },
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`prisma generate --schema ${schemaPath} exited with ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  fs.mkdirSync(path.dirname(POSTGRESQL_SCHEMA_PATH), { recursive: true });
  const postgresqlSchema = schemaFor('postgresql', { schemaPath: POSTGRESQL_SCHEMA_PATH });
  fs.writeFileSync(POSTGRESQL_SCHEMA_PATH, DERIVED_NOTICE + postgresqlSchema);
  await Promise.all([prismaGenerate(SCHEMA_PATH), prismaGenerate(POSTGRESQL_SCHEMA_PATH)]);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
