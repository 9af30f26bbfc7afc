/**
 * Scratch databases for tests: a SQLite file in a temp folder, or a fresh PostgreSQL database on
 * POSTGRES_ADMIN_URL's server. Each is removed when the test ends, whether it passed or not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { createScratchDatabase, postgresAdminUrl, postgresProblem } from '../../scripts/scratch-postgres.ts';

/** A `file:` URL for a database file that does not exist yet, in a folder that does not exist yet. */
export function scratchSqliteUrl(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chemflow-db-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return `file:${path.join(dir, 'nested', 'test.db')}`;
}

/**
 * Whether a PostgreSQL server answers at POSTGRES_ADMIN_URL. When none does, the test is marked skipped
 * with the reason, except under CI=true, where that is a failure: CI must cover PostgreSQL.
 */
export async function postgresAvailable(t: TestContext): Promise<boolean> {
  const problem = await postgresProblem();
  if (problem === null) return true;
  const reason = `PostgreSQL not reachable at ${new URL(postgresAdminUrl()).host} (POSTGRES_ADMIN_URL): ${problem}`;
  if (process.env.CI === 'true') throw new Error(`${reason}. CI=true requires PostgreSQL.`);
  t.skip(reason);
  return false;
}

/**
 * The URL of a new, empty PostgreSQL database, dropped (with any connection still open to it) when the
 * test ends; undefined when PostgreSQL is not available (see postgresAvailable).
 */
export async function scratchPostgresUrl(t: TestContext): Promise<string | undefined> {
  if (!(await postgresAvailable(t))) return undefined;
  const scratch = await createScratchDatabase('chemflow_test');
  t.after(scratch.drop);
  return scratch.url;
}
