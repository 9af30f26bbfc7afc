/**
 * DATABASE_URL handling and the Prisma client on both providers: a row written through Prisma reads
 * back, and on SQLite DateTime is stored as epoch milliseconds, the format the raw-SQL hot path uses.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { setEnvForTest } from '../../test/support/env.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { releaseProcessShared } from '../process-shared.ts';
import { closeDb, createDb, type Db, databaseProvider, databaseUrl, getDb } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { openSqliteFile, sqliteFilePath } from './sqlite-file.ts';

test('databaseProvider accepts file:, postgres:// and postgresql:// URLs and names them in its refusal', () => {
  assert.equal(databaseProvider('file:./data/chemflow.db'), 'sqlite');
  assert.equal(databaseProvider('postgres://u@h/db'), 'postgresql');
  assert.equal(databaseProvider('postgresql://u:secret@h:5432/db'), 'postgresql');
  assert.throws(
    () => databaseProvider('mysql://u:secret@h/db'),
    (error: Error) => {
      assert.match(error.message, /mysql:/);
      assert.match(error.message, /file:.*postgresql:\/\//);
      assert.doesNotMatch(error.message, /secret/);
      return true;
    },
  );
  assert.throws(() => databaseProvider('./data/chemflow.db'), /Unsupported DATABASE_URL/);
});

test('databaseUrl is DATABASE_URL, else the SQLite file under ./data', (t) => {
  setEnvForTest(t, 'DATABASE_URL', undefined);
  assert.equal(databaseUrl(), 'file:./data/chemflow.db');
  process.env.DATABASE_URL = 'postgresql://u@h/db';
  assert.equal(databaseUrl(), 'postgresql://u@h/db');
});

test('sqliteFilePath resolves relative paths against the working directory', () => {
  assert.equal(sqliteFilePath('file:./data/chemflow.db'), path.join(process.cwd(), 'data', 'chemflow.db'));
  assert.equal(sqliteFilePath('file:x.db?connection_limit=1'), path.join(process.cwd(), 'x.db'));
  assert.equal(sqliteFilePath('file:/var/lib/x.db'), '/var/lib/x.db');
  assert.equal(sqliteFilePath('file:///var/lib/x.db'), '/var/lib/x.db');
});

test('sqlite: createDb writes and reads through Prisma, storing DateTime as epoch milliseconds', async (t) => {
  const url = scratchSqliteUrl(t);
  await migrateDatabase(url);
  const db = createDb(url);
  try {
    const user = await db.user.create({
      data: { email: 'ada@example.com', emailVerified: new Date(1_700_000_000_123) },
    });
    const read = await db.user.findUniqueOrThrow({ where: { email: 'ada@example.com' } });
    assert.deepEqual(read, user);
    assert.equal(read.emailVerified?.getTime(), 1_700_000_000_123);
    assert.deepEqual(await db.$queryRawUnsafe('PRAGMA synchronous'), [{ synchronous: 1n }], 'synchronous=NORMAL');
    // Short: the wait is a synchronous sleep on the server's one thread (client.ts).
    assert.deepEqual(await db.$queryRawUnsafe('PRAGMA busy_timeout'), [{ timeout: 1000n }]);
  } finally {
    await db.$disconnect();
  }

  const raw = openSqliteFile(url);
  try {
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
    const row = raw
      .prepare(
        'SELECT typeof("emailVerified") AS t1, "emailVerified", typeof("createdAt") AS t2, "createdAt" FROM "User"',
      )
      .get() as { t1: string; emailVerified: number; t2: string; createdAt: number };
    assert.equal(row.t1, 'integer');
    assert.equal(row.emailVerified, 1_700_000_000_123);
    assert.equal(row.t2, 'integer', '@default(now()) must also be filled in by Prisma as epoch ms');
    assert.ok(Math.abs(row.createdAt - Date.now()) < 60_000);
  } finally {
    raw.close();
  }
});

test('postgresql: createDb writes and reads through Prisma', async (t) => {
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  await migrateDatabase(url);
  const db = createDb(url);
  try {
    const user = await db.user.create({
      data: { email: 'ada@example.com', emailVerified: new Date(1_700_000_000_123) },
    });
    assert.deepEqual(await db.user.findUniqueOrThrow({ where: { email: 'ada@example.com' } }), user);
    assert.equal(user.emailVerified?.getTime(), 1_700_000_000_123);
  } finally {
    await db.$disconnect();
  }
});

test('getDb returns one client per process, shared with every copy of the module', async (t) => {
  setEnvForTest(t, 'DATABASE_URL', scratchSqliteUrl(t));
  await releaseProcessShared<Db>('db')?.$disconnect();

  const db = getDb();
  t.after(() => closeDb());
  assert.equal(getDb(), db);
  // A second copy of the module, as Next.js's bundle loads one beside server.ts's.
  const copy: typeof import('./client.ts') = await import(`./client.ts?copy=${Date.now()}`);
  assert.equal(copy.getDb(), db, 'another copy of this module (the Next.js bundle) finds the same client');
});
