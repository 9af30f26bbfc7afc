/**
 * prisma/schema.prisma is written for SQLite and is the only hand-edited schema. The PostgreSQL schema
 * (for its client and its migrations) is derived from it by swapping the datasource provider and the
 * client's output folder; the models are shared verbatim.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseProvider } from '../config.ts';
import { PROJECT_ROOT } from '../project-root.ts';

export const SCHEMA_PATH = path.join(PROJECT_ROOT, 'prisma', 'schema.prisma');
/** Gitignored, rewritten by `npm run db:generate`; `prisma migrate deploy` for PostgreSQL reads it. */
export const POSTGRESQL_SCHEMA_PATH = path.join(PROJECT_ROOT, 'lib', 'db', 'generated', 'postgresql.prisma');

const DATASOURCE_PROVIDER = /(datasource\s+\w+\s*\{[^}]*?provider\s*=\s*)"sqlite"/;
const GENERATOR_OUTPUT = /(generator\s+client\s*\{[^}]*?output\s*=\s*)"[^"]*"/;

export function readSchema(): string {
  return fs.readFileSync(SCHEMA_PATH, 'utf8');
}

/**
 * The schema text for one provider, from `source` (default: prisma/schema.prisma). `schemaPath` is where
 * the text will be written: a client's output path is relative to its schema file, so it is rewritten to
 * point at lib/db/generated/<provider> from there.
 */
export function schemaFor(
  provider: DatabaseProvider,
  { source = readSchema(), schemaPath = SCHEMA_PATH }: { source?: string; schemaPath?: string } = {},
): string {
  if (provider === 'sqlite') return source;
  if (!DATASOURCE_PROVIDER.test(source) || !GENERATOR_OUTPUT.test(source)) {
    throw new Error(
      `${SCHEMA_PATH} must declare \`datasource … { provider = "sqlite" }\` and ` +
        '`generator client { output = "…" }`: the PostgreSQL schema is derived by rewriting those two settings.',
    );
  }
  const clientDir = path.join(PROJECT_ROOT, 'lib', 'db', 'generated', provider);
  const output = path.relative(path.dirname(schemaPath), clientDir);
  return source
    .replace(DATASOURCE_PROVIDER, `$1"${provider}"`)
    .replace(GENERATOR_OUTPUT, `$1"${output.split(path.sep).join('/')}"`);
}
