/**
 * Prisma transactions on SQLite take the write lock when they begin, as `BEGIN IMMEDIATE` would.
 *
 * Prisma's better-sqlite3 adapter begins every transaction (interactive `$transaction`, and the ones it
 * opens itself for upserts and nested writes) with a plain, deferred `BEGIN`. A transaction that reads
 * and then writes must then upgrade its read snapshot to the write lock; in WAL mode that upgrade fails
 * at once with SQLITE_BUSY_SNAPSHOT if any other connection committed since the read (no busy timeout
 * can wait that out: the snapshot is stale for good). With /mcp committing usage many times a second,
 * that was nearly every time: `cli key disable` failed under load and left a leaked key live.
 *
 * The adapter's BEGIN cannot simply be replaced by BEGIN IMMEDIATE: when that BEGIN fails, the adapter
 * never releases its transaction mutex, and every later transaction of the client hangs. So its deferred
 * BEGIN (which takes no lock and cannot fail) runs first, and the transaction's first statement is a
 * write that changes nothing: a deferred transaction whose first statement writes takes its snapshot and
 * the write lock together, exactly like BEGIN IMMEDIATE. Waiting for the lock happens here, on timers, so
 * the server's event loop (the portal shares it with /mcp) keeps running while another process (the CLI,
 * an import) holds the lock; after WRITE_LOCK_WAIT_MS the transaction is rolled back with an error that
 * says why.
 */
import type { SqlDriverAdapter, Transaction } from '@prisma/driver-adapter-utils';

/** How long a transaction waits for another connection's write lock before it gives up. */
export const WRITE_LOCK_WAIT_MS = 5000;
/** The synchronous wait inside SQLite per attempt (blocks the thread, so short), then a pause on a timer. */
const ATTEMPT_BUSY_TIMEOUT_MS = 10;
const MAX_PAUSE_MS = 50;

/**
 * A write that matches no row: it takes the write lock and changes nothing. The migration history table
 * exists in every database the app opens (each process migrates before it uses one).
 */
const TAKE_WRITE_LOCK = { sql: 'DELETE FROM "_prisma_migrations" WHERE 0', args: [], argTypes: [] };
const ROLLBACK = { sql: 'ROLLBACK', args: [], argTypes: [] };

/** The adapter reports SQLITE_BUSY (any extended code) as a SocketTimeout driver error. */
function isBusy(error: unknown): boolean {
  return (
    (error as { name?: string; cause?: { kind?: string } })?.name === 'DriverAdapterError' &&
    (error as { cause: { kind?: string } }).cause?.kind === 'SocketTimeout'
  );
}

/** Makes `adapter`'s transactions take the write lock as they begin; `busyTimeoutMs` is the connection's own setting. */
export function lockOnBegin(adapter: SqlDriverAdapter, busyTimeoutMs: number): SqlDriverAdapter {
  const begin = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => {
    const transaction = await begin(isolationLevel);
    try {
      await takeWriteLock(adapter, transaction, busyTimeoutMs);
      return transaction;
    } catch (error) {
      try {
        await transaction.executeRaw(ROLLBACK);
      } finally {
        await transaction.rollback(); // releases the adapter's transaction mutex
      }
      throw error;
    }
  };
  return adapter;
}

async function takeWriteLock(
  adapter: SqlDriverAdapter,
  transaction: Transaction,
  busyTimeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + WRITE_LOCK_WAIT_MS;
  for (let pause = 2; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    await adapter.executeScript(`PRAGMA busy_timeout = ${ATTEMPT_BUSY_TIMEOUT_MS}`);
    try {
      await transaction.executeRaw(TAKE_WRITE_LOCK);
      return;
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() >= deadline) {
        throw new Error(
          `The database is locked by another writer: waited ${WRITE_LOCK_WAIT_MS / 1000} s for its write lock. Nothing was written; try again.`,
        );
      }
    } finally {
      await adapter.executeScript(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
