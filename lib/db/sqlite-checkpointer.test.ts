/**
 * The hot path's WAL is checkpointed by the worker thread, not inside its commits: the connection has
 * automatic checkpoints off, yet committed pages reach the database file, and closing stops the worker.
 * A worker that fails hands checkpointing back to the connection.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { newRequestId } from '../usage/request-id.ts';
import { openSqliteHotPath } from './hot-path-sqlite.ts';
import { migrateDatabase } from './migrate.ts';
import { startCheckpointer } from './sqlite-checkpointer.ts';
import { openSqliteFile } from './sqlite-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'chemflow-checkpoint-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('checkpoints the WAL from the worker while the hot path commits, and stops on close', async () => {
  const url = `file:${join(dir, 'test.db')}`;
  await migrateDatabase(url);
  const db = openSqliteFile(url);
  const store = openSqliteHotPath(db);
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0, 'the hot path never checkpoints inside a commit');
  // Call rows need no key for what is measured here: the pages they fill.
  db.pragma('foreign_keys = OFF');

  const file = join(dir, 'test.db');
  const sizeBefore = statSync(file).size;
  const now = Date.now();
  for (let batch = 0; batch < 100; batch++) {
    await store.writeCalls(
      Array.from({ length: 16 }, () => ({
        requestId: newRequestId(now),
        keyId: 'k1',
        tool: 'service_query_compound',
        outcome: 'success' as const,
        errorCode: null,
        latencyMs: 1,
        createdAt: now,
        day: '2026-11-26',
      })),
    );
  }
  // Until a checkpoint copies them, committed pages live only in the WAL, and the file does not grow.
  const deadline = Date.now() + 5000;
  while (statSync(file).size <= sizeBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.ok(statSync(file).size > sizeBefore, 'the worker copied committed pages into the database file');
  assert.equal(db.prepare('SELECT COUNT(*) FROM "CallLog"').pluck().get(), 1600);

  await store.close();
  // The last connection to close checkpoints everything and removes the WAL.
  assert.ok(!existsSync(`${file}-wal`) || statSync(`${file}-wal`).size === 0);
});

it('if the worker cannot work, the connection checkpoints by itself again', async () => {
  const file = join(dir, 'moved.db');
  const db = openSqliteFile(`file:${file}`);
  // The worker opens the file by its name, which now names nothing: it fails and exits.
  renameSync(file, join(dir, 'elsewhere.db'));
  const checkpointer = startCheckpointer(db);
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
  const deadline = Date.now() + 5000;
  while (db.pragma('wal_autocheckpoint', { simple: true }) === 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 1000, "SQLite's own checkpoints are back on");
  await checkpointer.stop();
  db.close();
});
