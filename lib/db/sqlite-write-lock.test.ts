/**
 * Prisma transactions on SQLite (createDb) hold the write lock from their start, wait for another
 * connection's lock on timers, and give up cleanly: the mechanism behind "every write path succeeds under
 * /mcp load" (writes-under-load.test.ts runs the real thing).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { ensureTiers } from '../portal/first-start.ts';
import { createDb } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { sqliteFilePath } from './sqlite-file.ts';
import { WRITE_LOCK_WAIT_MS } from './sqlite-write-lock.ts';

async function scratch(t: import('node:test').TestContext) {
  const url = scratchSqliteUrl(t);
  await migrateDatabase(url);
  const db = createDb(url);
  t.after(() => db.$disconnect());
  await ensureTiers(db);
  const other = new Database(sqliteFilePath(url));
  other.pragma('busy_timeout = 0');
  t.after(() => other.close());
  return { db, other };
}

const bumpOther = (other: Database.Database) =>
  other.prepare(`UPDATE "Tier" SET "dailyQuota" = "dailyQuota" + 1 WHERE "id" = 'pro'`).run();

test('a transaction that reads, then writes, commits although another connection writes in between', async (t) => {
  const { db, other } = await scratch(t);
  let otherWasRefused = false;
  await db.$transaction(async (tx) => {
    const free = await tx.tier.findUniqueOrThrow({ where: { id: 'free' } });
    // Before: this commit succeeded, and the update below failed with SQLITE_BUSY_SNAPSHOT. Now the
    // transaction holds the write lock from its start, so the other connection must wait its turn.
    try {
      bumpOther(other);
    } catch (error) {
      assert.equal((error as { code: string }).code, 'SQLITE_BUSY');
      otherWasRefused = true;
    }
    await tx.tier.update({ where: { id: 'free' }, data: { dailyQuota: free.dailyQuota + 1 } });
  });
  assert.ok(otherWasRefused, 'the transaction held the write lock before its first write');
  bumpOther(other); // and released it when it committed
});

test("a transaction waits for another connection's write lock without stalling the event loop", async (t) => {
  const { db, other } = await scratch(t);
  const rename = () => db.$transaction(async (tx) => tx.tier.update({ where: { id: 'free' }, data: { name: 'Free' } }));
  await rename(); // Prisma compiles a query's plan at its first use: not part of what is measured
  other.exec('BEGIN IMMEDIATE');
  setTimeout(() => other.exec('COMMIT'), 800);
  let last = performance.now();
  let longestStall = 0;
  const ticker = setInterval(() => {
    longestStall = Math.max(longestStall, performance.now() - last);
    last = performance.now();
  }, 5);
  t.after(() => clearInterval(ticker));
  const started = performance.now();
  await rename();
  assert.ok(performance.now() - started >= 750, 'it waited for the lock');
  // Waiting inside SQLite instead (its busy timeout) would stall the thread for the whole 800 ms.
  assert.ok(longestStall < 400, `timers ran while it waited (longest stall ${Math.round(longestStall)} ms)`);
});

test('a lock held past the wait: the transaction fails with a clear error, and the next one works', async (t) => {
  const { db, other } = await scratch(t);
  other.exec('BEGIN IMMEDIATE');
  const started = performance.now();
  await assert.rejects(
    db.$transaction(async (tx) => tx.tier.update({ where: { id: 'free' }, data: { name: 'never' } })),
    /locked by another writer: waited 5 s for its write lock\. Nothing was written; try again\./,
  );
  assert.ok(performance.now() - started >= WRITE_LOCK_WAIT_MS - 100);
  other.exec('ROLLBACK');
  // The failed start released everything: the client still has transactions (no leaked mutex).
  const renamed = await db.$transaction(async (tx) =>
    tx.tier.update({ where: { id: 'free' }, data: { name: 'Free again' } }),
  );
  assert.equal(renamed.name, 'Free again');
  assert.deepEqual(
    await db.$queryRawUnsafe('PRAGMA busy_timeout'),
    [{ timeout: 1000n }],
    "the connection's own busy timeout is back",
  );
});
