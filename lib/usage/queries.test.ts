/**
 * The usage reads of an allowance (a reissue chain) on a real SQLite database: the last calls merge
 * every key's newest calls by time, even when two keys of the chain took calls in turn (as old and new
 * secrets will during a grace period), each naming its key; and today's use is summed per lineage.
 */
process.env.KEY_HASH_SECRET = 'q'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import type { CallRow } from '../db/hot-path.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { reissueKey } from '../keys/store.ts';
import { lastCalls, usageByTool, usedOnDayByLineage } from './queries.ts';

const DAY = '2026-11-26';
const T0 = Date.parse(`${DAY}T10:00:00Z`);

test("an allowance's last calls interleave its keys by time, newest first, and its day is summed over its keys", async (t) => {
  const { url, db, ada, actor, issue } = await scratchPortal(t);
  const first = await issue(ada, 'agent');
  const second = await reissueKey(db, first.key.id, actor(ada));
  const other = await issue(ada, 'other');
  const rows: CallRow[] = [];
  const call = (keyId: string, at: number, outcome: CallRow['outcome'] = 'success', tool = 'service_query_compound') =>
    rows.push({
      requestId: `r${rows.length}`,
      keyId,
      tool,
      outcome,
      errorCode: null,
      latencyMs: 1,
      createdAt: T0 + at,
      day: DAY,
    });
  // Both keys take calls in turn, and two calls share a millisecond (the later row is the newer).
  for (let i = 0; i < 8; i++) call(i % 2 ? second.key.id : first.key.id, i * 1000);
  call(first.key.id, 9000, 'rate_limited');
  call(second.key.id, 9000, 'failure', 'service_vapor_pressure');
  call(other.key.id, 10_000);
  const store = openSqliteHotPath(openSqliteFile(url));
  try {
    await store.writeCalls(rows);
  } finally {
    await store.close();
  }

  const calls = await lastCalls(db, first.key.lineageId, 5);
  assert.deepEqual(
    calls.map((c) => c.requestId),
    ['r9', 'r8', 'r7', 'r6', 'r5'],
  );
  assert.deepEqual(
    calls.map((c) => c.key.id),
    [second.key.id, first.key.id, second.key.id, first.key.id, second.key.id],
  );
  assert.equal((await lastCalls(db, other.key.lineageId)).length, 1);

  const used = await usedOnDayByLineage(db, [first.key.lineageId, other.key.lineageId, 'no-such-lineage'], DAY);
  assert.deepEqual(
    [...used].sort(),
    [
      [first.key.lineageId, 9],
      [other.key.lineageId, 1],
    ].sort(),
    'rate-limited calls consume nothing',
  );
  assert.deepEqual(await usageByTool(db, second.key.lineageId, DAY), [
    { tool: 'service_query_compound', successes: 8, failures: 0, rateLimited: 1 },
    { tool: 'service_vapor_pressure', successes: 0, failures: 1, rateLimited: 0 },
  ]);
});
