/**
 * Throwaway PostgreSQL databases, for the schema engine's scratch work and for tests. They are created
 * on the server POSTGRES_ADMIN_URL names, which must let its user create databases.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export function postgresAdminUrl(): string {
  return process.env.POSTGRES_ADMIN_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export interface ScratchDatabase {
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

/** A new, empty database named `<prefix>_<pid>_<random>`, so parallel runs never collide. */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** Why no PostgreSQL answers at POSTGRES_ADMIN_URL, or null when one does. */
export async function postgresProblem(): Promise<string | null> {
  const probe = new pg.Client({ connectionString: postgresAdminUrl(), connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    await probe.end();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
