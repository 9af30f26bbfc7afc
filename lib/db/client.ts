/**
 * The Prisma client for DATABASE_URL: SQLite (the embedded default) or PostgreSQL. Both clients are
 * generated from prisma/schema.prisma (scripts/db-generate.ts) and have the same API; the app is
 * typed against the SQLite one.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { type DatabaseProvider, databaseProvider, databaseUrl } from '../config.ts';
import { processShared, releaseProcessShared } from '../process-shared.ts';
import { PrismaClient as PostgresPrismaClient } from './generated/postgresql/client.ts';
import { PrismaClient as SqlitePrismaClient } from './generated/sqlite/client.ts';
import { sqliteFilePath, sqlitePragmas } from './sqlite-file.ts';
import { lockOnBegin, WRITE_LOCK_WAIT_MS } from './sqlite-write-lock.ts';

export { type DatabaseProvider, databaseProvider, databaseUrl } from '../config.ts';

export type Db = SqlitePrismaClient;

// Shared by the process like the client (see getDb): the Next bundle's copy of this module must know the
// provider of a client that server.ts's copy created, or key changes made in the portal would skip NOTIFY.
const providers = processShared('dbProviders', () => new WeakMap<Db, DatabaseProvider>());

/** The database behind a client, for the few places that must speak its dialect (e.g. NOTIFY). */
export function providerOf(db: Db): DatabaseProvider {
  return providers.get(db) ?? 'sqlite';
}

/** How long the portal waits for a new PostgreSQL connection before the page fails. */
const PRISMA_PG_CONNECT_TIMEOUT_MS = 3000;

export function createDb(url = databaseUrl()): Db {
  const db = openClient(url);
  providers.set(db, databaseProvider(url));
  return db;
}

function openClient(url: string): Db {
  if (databaseProvider(url) === 'postgresql') {
    // Same models, same query API; only the generated SQL dialect differs.
    // Without a connect timeout, a database host that stopped answering would hold every page until the
    // OS gave up on the TCP connection (minutes); now the page fails fast with the friendly error page.
    return new PostgresPrismaClient({
      adapter: new PrismaPg({ connectionString: url, connectionTimeoutMillis: PRISMA_PG_CONNECT_TIMEOUT_MS }),
    }) as unknown as Db;
  }
  const adapter = new PrismaBetterSqlite3(
    { url: sqliteFilePath(url) },
    // DateTime as epoch milliseconds, the format the schema documents and the raw-SQL hot path writes.
    { timestampFormat: 'unixepoch-ms' },
  );
  // Prisma gives up on starting a transaction after maxWait (default 2 s); a transaction may wait longer
  // for another process's write lock (sqlite-write-lock.ts), and reports it itself when it gives up.
  return new SqlitePrismaClient({
    adapter: withPragmasOnConnect(adapter),
    transactionOptions: { maxWait: WRITE_LOCK_WAIT_MS + 1000 },
  });
}

/**
 * How long a single Prisma statement on SQLite (outside a transaction) waits for another connection's
 * write lock. The adapter runs better-sqlite3 on the main thread, so in the server this wait stalls every
 * request: 1 s covers the server's own usage commits (well under a millisecond each) many times over, and
 * a lock held longer (a stuck process) turns into an error page after a second instead of a frozen
 * server. Transactions wait for the lock on timers instead, without stalling anything (sqlite-write-lock.ts).
 */
const PRISMA_SQLITE_BUSY_TIMEOUT_MS = 1000;

/**
 * The adapter opens its connection lazily and has no option for pragmas; run them when it connects, and
 * make its transactions take the write lock as they begin.
 */
function withPragmasOnConnect(factory: PrismaBetterSqlite3): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      await adapter.executeScript(sqlitePragmas(PRISMA_SQLITE_BUSY_TIMEOUT_MS));
      return lockOnBegin(adapter, PRISMA_SQLITE_BUSY_TIMEOUT_MS);
    },
  };
}

/**
 * The process-wide client. The Next.js server bundle and server.ts each load their own copy of this
 * module, so the client is shared by the process (lib/process-shared.ts), where both find the same one
 * (and one SQLite connection).
 */
export function getDb(): Db {
  return processShared('db', createDb);
}

/** Disconnects the process-wide client, if one was opened (graceful shutdown). */
export async function closeDb(): Promise<void> {
  await releaseProcessShared<Db>('db')?.$disconnect();
}
