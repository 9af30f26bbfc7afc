/**
 * The group-commit usage recorder over the real hot-path stores (SQLite and PostgreSQL): a record()
 * resolves only once its row is committed, many calls share one transaction, and what the raw-SQL hot
 * path writes is what Prisma (the portal, `key show`) reads back, to the millisecond.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import { postgresAdminUrl } from '../../scripts/scratch-postgres.ts';
import { setEnvForTest } from '../../test/support/env.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { CLI_ACTOR } from '../audit/write.ts';
import { createDb, type Db } from '../db/client.ts';
import { type CallRow, DatabaseLocked, type HotPathStore } from '../db/hot-path.ts';
import { openPostgresHotPath } from '../db/hot-path-postgres.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { disableKey } from '../keys/store.ts';
import { ensureTiers } from '../portal/first-start.ts';
import { createUsageRecorder } from './recorder.ts';

type Provider = 'sqlite' | 'postgresql';

interface Fixture {
  db: Db;
  store: HotPathStore;
  /** Sizes of the batches that reached writeCalls, in order. */
  batches: number[];
  keyIds: [string, string];
  url: string;
}

/** A migrated scratch database with two keys, its Prisma client, and the hot-path store on it. */
async function fixture(t: TestContext, provider: Provider): Promise<Fixture | undefined> {
  let db: Db | undefined;
  let store: HotPathStore | undefined;
  // Registered before the scratch database's own cleanup, so connections close before it is dropped
  // (after-hooks run in the order they were registered).
  t.after(async () => {
    await store?.close();
    await db?.$disconnect();
  });
  const url = provider === 'sqlite' ? scratchSqliteUrl(t) : await scratchPostgresUrl(t);
  if (!url) return undefined;
  await migrateDatabase(url);
  db = createDb(url);
  await ensureTiers(db);
  const owner = await db.user.create({ data: { email: 'ada@example.test' } });
  const keyIds = [] as unknown as [string, string];
  for (const n of [1, 2]) {
    const key = await db.apiKey.create({
      data: {
        ownerId: owner.id,
        name: `key ${n}`,
        keyHash: `hash-${n}`,
        start: `abc${n}`,
        end: `wxy${n}`,
        tierId: 'free',
      },
    });
    keyIds.push(key.id);
  }
  store = provider === 'sqlite' ? openSqliteHotPath(openSqliteFile(url)) : openPostgresHotPath(url);
  const real = store;
  const batches: number[] = [];
  // The real store, still writing; the wrapper only notes each batch's size.
  const counting: HotPathStore = {
    ...real,
    writeCalls: (rows, deadline) => {
      batches.push(rows.length);
      return real.writeCalls(rows, deadline);
    },
  };
  return { db, store: counting, batches, keyIds, url };
}

const OUTCOMES = ['success', 'success', 'success', 'failure', 'rate_limited'] as const;
const TOOLS = ['service_query_compound', 'service_vapor_pressure'];
// 23:59:00 UTC, so the rows span two quota days.
const BASE = Date.UTC(2026, 0, 31, 23, 59, 0);

/** n call rows over two keys, two tools, two days and all outcomes, each at a distinct millisecond. */
function callRows(keyIds: string[], n: number, tag: string): CallRow[] {
  return Array.from({ length: n }, (_, i) => {
    const outcome = OUTCOMES[i % OUTCOMES.length];
    const createdAt = BASE + i * 251 + 7;
    return {
      requestId: `${tag}-${i}`,
      keyId: keyIds[i % 2],
      tool: TOOLS[Math.floor(i / 2) % 2],
      outcome,
      errorCode:
        outcome === 'failure' ? 'compound_not_found' : outcome === 'rate_limited' ? 'rate_limit_exceeded' : null,
      latencyMs: (i % 97) + 0.125,
      createdAt,
      day: new Date(createdAt).toISOString().slice(0, 10),
    };
  });
}

function expectedDailyUsage(rows: CallRow[]) {
  const groups = new Map<
    string,
    { keyId: string; day: string; tool: string; successes: number; failures: number; rateLimited: number }
  >();
  for (const r of rows) {
    const id = `${r.keyId}|${r.day}|${r.tool}`;
    const g = groups.get(id) ?? { keyId: r.keyId, day: r.day, tool: r.tool, successes: 0, failures: 0, rateLimited: 0 };
    if (r.outcome === 'success') g.successes++;
    else if (r.outcome === 'failure') g.failures++;
    else g.rateLimited++;
    groups.set(id, g);
  }
  return [...groups.values()].sort(byUsageId);
}

const byUsageId = (a: { keyId: string; day: string; tool: string }, b: typeof a) =>
  `${a.keyId}|${a.day}|${a.tool}`.localeCompare(`${b.keyId}|${b.day}|${b.tool}`);

/** Everything the hot path wrote, read back through Prisma: call rows, daily aggregates, last-used times. */
async function assertReadableThroughPrisma(db: Db, rows: CallRow[]) {
  const stored = await db.callLog.findMany({ orderBy: { requestId: 'asc' } });
  assert.equal(stored.length, rows.length);
  const byRequest = new Map(stored.map((s) => [s.requestId, s]));
  for (const r of rows) {
    const s = byRequest.get(r.requestId);
    assert.ok(s, `row ${r.requestId} is stored`);
    assert.ok(s.createdAt instanceof Date);
    assert.equal(
      s.createdAt.getTime(),
      r.createdAt,
      `createdAt of ${r.requestId}: ${s.createdAt.toISOString()} vs ${new Date(r.createdAt).toISOString()}`,
    );
    assert.deepEqual(
      [s.keyId, s.tool, s.outcome, s.errorCode, s.latencyMs],
      [r.keyId, r.tool, r.outcome, r.errorCode, r.latencyMs],
    );
  }
  const daily = (await db.dailyUsage.findMany()).map(({ keyId, day, tool, successes, failures, rateLimited }) => ({
    keyId,
    day,
    tool,
    successes,
    failures,
    rateLimited,
  }));
  assert.deepEqual(daily.sort(byUsageId), expectedDailyUsage(rows));
  for (const key of await db.apiKey.findMany()) {
    const used = rows.filter((r) => r.keyId === key.id && r.outcome !== 'rate_limited').map((r) => r.createdAt);
    assert.equal(
      key.lastUsedAt?.getTime() ?? null,
      used.length ? Math.max(...used) : null,
      'lastUsedAt is the latest admitted call',
    );
  }
}

for (const provider of ['sqlite', 'postgresql'] as const) {
  describe(`usage recorder on the ${provider} hot path`, () => {
    it('500 concurrent record() calls resolve only after commit, in few transactions, and read back through Prisma', async (t) => {
      const f = await fixture(t, provider);
      if (!f) return;
      const recorder = createUsageRecorder(f.store);
      const rows = callRows(f.keyIds, 500, 'burst');
      // At the moment each record() resolves, its row must already be visible to another connection.
      const visibleOnResolve: Promise<boolean>[] = [];
      await Promise.all(
        rows.map((row) =>
          recorder.record(row).then(() => {
            visibleOnResolve.push(f.db.callLog.count({ where: { requestId: row.requestId } }).then((n) => n === 1));
          }),
        ),
      );
      assert.ok((await Promise.all(visibleOnResolve)).every(Boolean), 'every resolved record was committed');
      assert.equal(
        f.batches.reduce((a, b) => a + b, 0),
        500,
      );
      assert.ok(
        f.batches.length <= 5,
        `500 calls made in one turn share a handful of transactions, not ${f.batches.length}`,
      );
      await assertReadableThroughPrisma(f.db, rows);
    });

    it('writing the same requestId again, in a later batch or the same one, counts it once', async (t) => {
      const f = await fixture(t, provider);
      if (!f) return;
      const recorder = createUsageRecorder(f.store);
      const rows = callRows(f.keyIds, 20, 'dup');
      // The first batch carries a new id twice; the second repeats old ids beside one new row.
      await Promise.all([...rows.slice(0, 19), rows[18]].map((row) => recorder.record(row)));
      await Promise.all([...rows, rows[0], rows[3]].map((row) => recorder.record(row)));
      await recorder.flush();
      await assertReadableThroughPrisma(f.db, rows);
    });

    it('a failed write rejects every record() of its batch and commits none of it; the next batch still works', async (t) => {
      const f = await fixture(t, provider);
      if (!f) return;
      const recorder = createUsageRecorder(f.store);
      const good = callRows(f.keyIds, 5, 'doomed');
      // A call for a key that does not exist violates CallLog's foreign key.
      const orphan: CallRow = { ...good[0], requestId: 'orphan', keyId: 'no-such-key' };
      const settled = await Promise.allSettled([...good, orphan].map((row) => recorder.record(row)));
      assert.deepEqual(
        settled.map((s) => s.status),
        Array(6).fill('rejected'),
      );
      assert.match(String((settled[0] as PromiseRejectedResult).reason), /foreign key/i);
      assert.equal(await f.db.callLog.count(), 0, 'the batch was one transaction');
      assert.equal(await f.db.dailyUsage.count(), 0);

      const next = callRows(f.keyIds, 3, 'after');
      await Promise.all(next.map((row) => recorder.record(row)));
      assert.deepEqual(f.batches, [6, 3]);
      await assertReadableThroughPrisma(f.db, next);
    });

    it('lastUsedAt only moves forward, and rate-limited calls leave it alone', async (t) => {
      const f = await fixture(t, provider);
      if (!f) return;
      const recorder = createUsageRecorder(f.store);
      const [keyId] = f.keyIds;
      const call = (requestId: string, createdAt: number, outcome: CallRow['outcome']) =>
        recorder.record({
          requestId,
          keyId,
          tool: TOOLS[0],
          outcome,
          errorCode: null,
          latencyMs: 1,
          createdAt,
          day: '2026-02-01',
        });
      const lastUsed = async () =>
        (await f.db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt?.getTime();

      await call('late', BASE + 2000, 'success');
      assert.equal(await lastUsed(), BASE + 2000);
      await call('early', BASE + 1000, 'success'); // a slower call that finished after a later one
      assert.equal(await lastUsed(), BASE + 2000);
      await call('refused', BASE + 3000, 'rate_limited');
      assert.equal(await lastUsed(), BASE + 2000);
      await call('failed', BASE + 4000, 'failure');
      assert.equal(await lastUsed(), BASE + 4000);
    });

    it('timestamps round-trip when the host runs in a local time zone other than UTC', async (t) => {
      // Production hosts often run with TZ set; the hot path and Prisma must still agree on every instant.
      setEnvForTest(t, 'TZ', 'America/New_York');
      assert.notEqual(new Date(BASE).getTimezoneOffset(), 0, 'the local zone really changed');
      const f = await fixture(t, provider);
      if (!f) return;
      const rows = callRows(f.keyIds, 10, 'zoned');
      const recorder = createUsageRecorder(f.store);
      await Promise.all(rows.map((row) => recorder.record(row)));
      await assertReadableThroughPrisma(f.db, rows);

      // And the other way: an expiry written through Prisma is the same instant on the hot path.
      const expiresAt = new Date(Date.UTC(2031, 0, 1, 12, 0, 0, 123));
      await f.db.apiKey.update({ where: { id: f.keyIds[0] }, data: { expiresAt } });
      assert.equal((await f.store.findKeyByHash('hash-1'))?.expiresAt, expiresAt.getTime());
    });
  });
}

describe('PostgreSQL hot path: connections and key changes', () => {
  it('survives PostgreSQL closing its connections (a restart or failover) and keeps writing', async (t) => {
    const f = await fixture(t, 'postgresql');
    if (!f) return;
    const recorder = createUsageRecorder(f.store);
    const [first, second] = callRows(f.keyIds, 2, 'restart');
    await recorder.record(first);
    const versionBefore = f.store.keysVersion();

    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    await admin
      .query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
        new URL(f.url).pathname.slice(1),
      ])
      .finally(() => admin.end());
    // The pool sees its idle connections closed; an unhandled error event there would end the process.
    await sleep(200);

    await recorder.record(second);
    assert.equal(await f.db.callLog.count(), 2);
    for (let waited = 0; f.store.keysVersion() === versionBefore && waited < 5000; waited += 20) await sleep(20);
    assert.notEqual(
      f.store.keysVersion(),
      versionBefore,
      'the listener reconnected and dropped what it may have missed',
    );
  });

  it('a key disabled through Prisma is announced with pg_notify and moves keysVersion() within 1 s', async (t) => {
    const f = await fixture(t, 'postgresql');
    if (!f) return;
    // The store announces changes when DATABASE_URL is PostgreSQL, as it is on every instance of such a deployment.
    setEnvForTest(t, 'DATABASE_URL', f.url);

    // The listener connects in the background and moves the version once it listens.
    for (let waited = 0; f.store.keysVersion() === 0 && waited < 10_000; waited += 20) await sleep(20);
    assert.ok(f.store.keysVersion() > 0, 'the listener connected');
    const before = f.store.keysVersion();
    assert.equal((await f.store.findKeyByHash('hash-1'))?.disabledAt, null);

    await disableKey(f.db, { keyId: f.keyIds[0], reason: 'leaked', actor: CLI_ACTOR, kind: 'leaked' });
    for (let waited = 0; f.store.keysVersion() === before && waited < 1000; waited += 10) await sleep(10);
    assert.notEqual(f.store.keysVersion(), before, 'the change was heard within 1 s');
    assert.equal(typeof (await f.store.findKeyByHash('hash-1'))?.disabledAt, 'number');
  });
});

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('usage recorder on a locked SQLite database: one deadline per call', () => {
  it('each record() is refused by its own deadline, rows of refused calls are never written, and writes resume after', async (t) => {
    const f = await fixture(t, 'sqlite');
    const recorder = createUsageRecorder(f!.store);
    const blocker = openSqliteFile(f!.url);
    t.after(() => blocker.close());
    blocker.exec('BEGIN IMMEDIATE');
    const rows = callRows(f!.keyIds, 6, 'locked');
    const deadlineMs = 600;
    const started = Date.now();
    // Calls arriving at different times: the later ones join the batch that is already waiting, and
    // each leaves it at its own deadline, not when the batch ahead of it gives up.
    const settled = rows.map(async (row, i) => {
      await sleep(i * 100);
      const deadline = Date.now() + deadlineMs;
      const outcome = await recorder.record(row, deadline).then(
        () => 'written',
        (error) => error,
      );
      return { outcome, deadline, late: Date.now() - deadline };
    });
    // Released before the last calls' deadlines: the calls still waiting get written, the others not.
    let releasedAt = Infinity;
    setTimeout(() => {
      blocker.exec('ROLLBACK');
      releasedAt = Date.now();
    }, deadlineMs + 250);
    const results = await Promise.all(settled);
    for (const [i, { outcome, deadline, late }] of results.entries()) {
      if (deadline < releasedAt - 20) {
        assert.ok(outcome instanceof DatabaseLocked, `call ${i} refused: ${outcome}`);
        assert.ok(late < 150, `call ${i} refused ${late} ms after its deadline`);
      } else if (deadline > releasedAt + 20) {
        assert.equal(outcome, 'written', `call ${i} was still waiting when the lock went`);
      }
    }
    const written = new Set(results.flatMap((r, i) => (r.outcome === 'written' ? [rows[i].requestId] : [])));
    assert.ok(written.size >= 2, `the calls still waiting when the lock went were written (${written.size})`);
    const stored = (await f!.db.callLog.findMany()).map((row) => row.requestId);
    assert.deepEqual(stored.sort(), [...written].sort(), 'exactly the rows of the calls that were answered');
    assert.ok(Date.now() - started < 3000);

    await recorder.record(callRows(f!.keyIds, 1, 'after')[0]);
    assert.equal(await f!.db.callLog.count(), written.size + 1);
  });
});
