/**
 * Which database the app talks to is decided by one setting, DATABASE_URL. This module only reads and
 * classifies it, so the migration runner and scripts can use it without loading a Prisma client.
 */
export type DatabaseProvider = 'sqlite' | 'postgresql';

/** The embedded default: a SQLite file under ./data, relative to the working directory. */
export const DEFAULT_DATABASE_URL = 'file:./data/chemflow.db';

export function databaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function databaseProvider(url: string): DatabaseProvider {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgresql';
  if (/^file:/i.test(url)) return 'sqlite';
  // Name only the scheme: the rest of a URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? (url ? 'a URL without a scheme' : 'an empty value');
  throw new Error(
    `Unsupported DATABASE_URL (${scheme}). Use file:./path/to/file.db for SQLite ` +
      'or postgresql://user:password@host:5432/database (postgres:// also works) for PostgreSQL.',
  );
}
