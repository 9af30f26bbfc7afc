/**
 * Refused calls on a real SQLite database: per-day counts add up across writes, only the newest
 * REFUSED_CALLS_KEPT details stay per key, a write that fails is kept and made with the next one, a key
 * deleted meanwhile is skipped, and the report covers the key's reissue chain, naming the other secret;
 * on PostgreSQL, two instances' counts add up.
 */
process.env.KEY_HASH_SECRET = 'q'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { createDb, type Db } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { disableKey, issueKey, reissueKey } from '../keys/store.ts';
import type { StoppedReason } from '../keys/verify.ts';
import { ensureTiers } from '../portal/first-start.ts';
import {
  createRefusedCallRecorder,
  REFUSED_CALLS_KEPT,
  type RefusedRequest,
  readableAddress,
} from './refused-calls.ts';
import { refusedReport } from './refused-report.ts';

const T0 = Date.parse('2026-11-26T10:00:00Z');
const refusal = (keyId: string, i: number, day = '2026-11-26', reason: StoppedReason = 'disabled'): RefusedRequest => ({
  keyId,
  reason,
  clientAddress: `203.0.113.${i % 250}`,
  at: T0 + i * 1000,
  day,
});

test('counts add up per day across writes, and each key keeps only its newest refused calls', async (t) => {
  const { db, ada, actor, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  await disableKey(db, { keyId: key.id, reason: 'test', actor: actor(ada), kind: 'owner' });
  const recorder = createRefusedCallRecorder(() => db, 60_000);
  for (let i = 0; i < 25; i++) recorder.note(refusal(key.id, i));
  recorder.note(refusal(key.id, 30, '2026-11-27'));
  await recorder.flush();
  for (let i = 31; i < 34; i++) recorder.note(refusal(key.id, i, '2026-11-27'));
  await recorder.flush();

  const days = await db.refusedDaily.findMany({ where: { keyId: key.id }, orderBy: { day: 'asc' } });
  assert.deepEqual(
    days.map((d) => [d.day, d.reason, d.count, d.lastAt.getTime()]),
    [
      ['2026-11-26', 'disabled', 25, T0 + 24_000],
      ['2026-11-27', 'disabled', 4, T0 + 33_000],
    ],
  );
  const kept = await db.refusedCall.findMany({ where: { keyId: key.id }, orderBy: { createdAt: 'desc' } });
  assert.equal(kept.length, REFUSED_CALLS_KEPT);
  assert.deepEqual(
    kept.map((r) => r.createdAt.getTime()),
    [33, 32, 31, 30, 24, 23, 22, 21, 20, 19].map((i) => T0 + i * 1000),
  );
  assert.equal(kept[0].clientAddress, '203.0.113.33');

  const report = await refusedReport(db, key.id, key.lineageId, '2026-11-27');
  assert.equal(report.today, 4);
  assert.equal(report.total, 29);
  assert.equal(report.since, '2026-11-26');
  assert.equal(report.recent.length, REFUSED_CALLS_KEPT);
  assert.deepEqual(report.recent[0], {
    id: kept[0].id,
    at: new Date(T0 + 33_000).toISOString(),
    clientAddress: '203.0.113.33',
    reason: 'disabled',
    key: null,
  });
});

test('a write that fails is kept and made with the next one; a key deleted meanwhile is skipped', async (t) => {
  const { db, ada, bob, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const gone = await issue(bob);
  // A database without the tables: every write fails, as it would with the database unreachable.
  const unmigrated = createDb(scratchSqliteUrl(t));
  t.after(() => unmigrated.$disconnect());
  let current: Db = unmigrated;
  const recorder = createRefusedCallRecorder(() => current, 60_000);
  for (let i = 0; i < 3; i++) recorder.note(refusal(key.id, i));
  recorder.note(refusal(gone.key.id, 3));
  await recorder.flush();
  assert.equal(await db.refusedDaily.count(), 0);

  current = db;
  await db.apiKey.delete({ where: { id: gone.key.id } });
  recorder.note(refusal(key.id, 4));
  await recorder.flush();
  const [day] = await db.refusedDaily.findMany();
  assert.deepEqual([day.keyId, day.count], [key.id, 4]);
  assert.equal(await db.refusedCall.count({ where: { keyId: key.id } }), 4);
});

test('the report covers the reissue chain and names the old secret that was tried', async (t) => {
  const { db, ada, actor, issue } = await scratchPortal(t);
  const old = await issue(ada);
  const { key: successor } = await reissueKey(db, old.key.id, actor(ada));
  const recorder = createRefusedCallRecorder(() => db, 60_000);
  recorder.note(refusal(old.key.id, 1, '2026-11-26', 'replaced'));
  await recorder.flush();

  const report = await refusedReport(db, successor.id, successor.lineageId, '2026-11-26');
  assert.equal(report.total, 1);
  assert.equal(report.recent[0].reason, 'replaced');
  assert.equal(report.recent[0].key?.id, old.key.id);
  assert.match(report.recent[0].key!.display, /^cf_\w{4}…\w{4}$/);
  // Another chain's report sees none of it.
  const other = await issue(ada, 'other');
  assert.equal((await refusedReport(db, other.key.id, other.key.lineageId, '2026-11-26')).total, 0);
});

test('client addresses read as people know them: an IPv4-mapped IPv6 address as plain IPv4', () => {
  assert.equal(readableAddress('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(readableAddress('2001:db8::7'), '2001:db8::7');
  assert.equal(readableAddress('::ffff:abcd'), '::ffff:abcd');
  assert.equal(readableAddress(undefined), null);
});

test('PostgreSQL: two recorders (two instances) add their counts for one key and day', async (t) => {
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  await migrateDatabase(url);
  const db = createDb(url);
  t.after(() => db.$disconnect());
  await ensureTiers(db);
  const owner = await db.user.create({ data: { email: 'pg@example.test' } });
  const { key } = await issueKey(db, { ownerId: owner.id, name: 'pg' }, { label: 'test' });
  const [one, two] = [createRefusedCallRecorder(() => db, 60_000), createRefusedCallRecorder(() => db, 60_000)];
  for (let i = 0; i < 7; i++) (i % 2 ? one : two).note(refusal(key.id, i));
  await Promise.all([one.flush(), two.flush()]);
  const report = await refusedReport(db, key.id, key.lineageId, '2026-11-26');
  assert.deepEqual([report.today, report.total, report.recent.length], [7, 7, 7]);
  assert.equal(report.recent[0].clientAddress, '203.0.113.6');
});
