/**
 * The key store on a real migrated SQLite database: only a keyed hash of a secret is ever stored, and
 * every change writes its one audit event in the same transaction as the change, so neither can exist
 * without the other.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type TestContext, test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import type { Db } from '../db/client.ts';
import type { HotPathStore } from '../db/hot-path.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile, sqliteFilePath } from '../db/sqlite-file.ts';
import { keyReport } from '../usage/key-report.ts';
import { KeyStoreError } from './errors.ts';
import { disableKey, enableKey, issueKey, REISSUE_GRACE_PERIODS, type ReissueGrace, reissueKey } from './store.ts';
import { createKeyVerifier } from './verify.ts';

// hashKey reads its secret once, from here; a known secret lets the test recompute the HMAC itself.
// test-isolation: process (the key-hash secret below must be the one lib/keys/hash.ts reads and caches)
const HASH_SECRET = 'f'.repeat(64);
process.env.KEY_HASH_SECRET = HASH_SECRET;
const hmac = (secret: string) => createHmac('sha256', HASH_SECRET).update(secret).digest('hex');

/** A scratch database with a key owner (ada) and a support agent (grace) acting from a known address. */
async function storeDb(t: TestContext) {
  const { url, db, ada, support, actor } = await scratchPortal(t);
  return { url, db, owner: ada, actor: actor(support) };
}

/**
 * /mcp's hot path on the scratch database, closed before the test's scratch directory goes (closing it
 * in t.after could come after the directory's removal, failing its checkpoint worker).
 */
async function withHotPath(url: string, body: (hotPath: HotPathStore) => Promise<void>): Promise<void> {
  const hotPath = openSqliteHotPath(openSqliteFile(url));
  try {
    await body(hotPath);
  } finally {
    await hotPath.close();
  }
}

const auditOf = (db: Db, keyId: string) => db.auditEvent.findMany({ where: { keyId }, orderBy: { createdAt: 'asc' } });

/** Makes every audit write fail, as a full disk or a broken audit table would. */
function breakAuditWrites(url: string): void {
  const raw = openSqliteFile(url);
  raw.exec(
    `CREATE TRIGGER audit_unavailable BEFORE INSERT ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'audit store unavailable'); END`,
  );
  raw.close();
}

test('issueKey stores the HMAC of the secret and its display parts, and one key.issue audit event', async (t) => {
  const { db, owner, actor } = await storeDb(t);
  const { key, secret } = await issueKey(
    db,
    {
      ownerId: owner.id,
      name: ' laptop ',
      tierId: 'pro',
      dailyQuota: 500,
      expiresAt: new Date('2031-01-01T00:00:00Z'),
    },
    actor,
  );

  const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
  assert.equal(row.keyHash, hmac(secret));
  assert.deepEqual([row.start, row.end], [secret.slice(3, 7), secret.slice(-4)]);
  assert.deepEqual(
    [row.name, row.tierId, row.dailyQuota, row.ratePerSecond, row.disabledAt],
    ['laptop', 'pro', 500, null, null],
  );

  const events = await auditOf(db, key.id);
  assert.equal(events.length, 1);
  const [event] = events;
  assert.deepEqual(
    [event.action, event.actorId, event.actorLabel, event.ip, event.targetUserId, event.before, event.reason],
    ['key.issue', actor.userId, actor.label, actor.ip, owner.id, null, null],
  );
  assert.deepEqual(JSON.parse(event.after!), {
    name: 'laptop',
    tierId: 'pro',
    dailyQuota: 500,
    ratePerSecond: null,
    expiresAt: '2031-01-01T00:00:00.000Z',
    disabledAt: null,
    disabledReason: null,
    stopKind: null,
  });
});

test('no secret appears anywhere in the database: not in the raw file bytes, not in any text column', async (t) => {
  const { url, db, owner, actor } = await storeDb(t);
  const issued = await issueKey(db, { ownerId: owner.id, name: 'scan me' }, actor);
  const reissued = await reissueKey(db, issued.key.id, actor);
  await disableKey(db, { keyId: reissued.key.id, reason: 'leaked', actor: actor, kind: 'support' });
  const secrets = [issued.secret, reissued.secret];

  const textValues: string[] = [];
  for (const { name } of await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE type = 'table'`,
  )) {
    for (const row of await db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name}"`)) {
      textValues.push(...Object.values(row).filter((v): v is string => typeof v === 'string'));
    }
  }
  await db.$disconnect();
  // The database file and its WAL/shared-memory companions, byte for byte.
  const dir = path.dirname(sqliteFilePath(url));
  const bytes = Buffer.concat(fs.readdirSync(dir).map((file) => fs.readFileSync(path.join(dir, file))));

  for (const secret of secrets) {
    const body = secret.slice(3);
    assert.ok(bytes.includes(hmac(secret)), 'the scan sees the stored hash, so it would see a stored secret too');
    assert.ok(!bytes.includes(body), 'the secret is not in the database files');
    assert.ok(!textValues.some((v) => v.includes(body)), 'the secret is not in any text column');
    // Nor is the hash in the audit trail, which staff read.
    assert.ok(!textValues.some((v) => v.startsWith('{') && v.includes(hmac(secret))));
  }
});

test('disableKey records who, when and why, with one key.disable audit event holding before and after', async (t) => {
  const { db, owner, actor } = await storeDb(t);
  const { key } = await issueKey(db, { ownerId: owner.id, name: 'ci' }, actor);
  const disabled = await disableKey(db, {
    keyId: key.id,
    reason: '  leaked in a gist  ',
    actor: actor,
    kind: 'support',
  });
  assert.deepEqual(
    [disabled.disabledById, disabled.disabledReason, disabled.stopKind],
    [actor.userId, 'leaked in a gist', 'support'],
  );
  assert.ok(disabled.disabledAt instanceof Date);

  const events = (await auditOf(db, key.id)).filter((e) => e.action === 'key.disable');
  assert.equal(events.length, 1);
  const [event] = events;
  assert.deepEqual(
    [event.actorId, event.actorLabel, event.ip, event.reason, event.targetUserId],
    [actor.userId, actor.label, actor.ip, 'leaked in a gist', owner.id],
  );
  assert.deepEqual(JSON.parse(event.before!), {
    ...JSON.parse(event.after!),
    disabledAt: null,
    disabledReason: null,
    stopKind: null,
  });
  assert.equal(JSON.parse(event.after!).disabledAt, disabled.disabledAt!.toISOString());
  assert.equal(JSON.parse(event.after!).disabledReason, 'leaked in a gist');
});

test('refused changes write no audit event: a missing key, an already disabled key, an empty reason', async (t) => {
  const { db, owner, actor } = await storeDb(t);
  const { key } = await issueKey(db, { ownerId: owner.id, name: 'once' }, actor);
  await disableKey(db, { keyId: key.id, reason: 'first', actor: actor, kind: 'support' });
  const eventsBefore = await db.auditEvent.count();

  const refusal = (code: string) => (error: unknown) => error instanceof KeyStoreError && error.code === code;
  await assert.rejects(
    disableKey(db, { keyId: 'no-such-key', reason: 'leaked', actor: actor, kind: 'support' }),
    refusal('not_found'),
  );
  await assert.rejects(
    disableKey(db, { keyId: key.id, reason: 'second', actor: actor, kind: 'support' }),
    refusal('already_disabled'),
  );
  await assert.rejects(
    disableKey(db, { keyId: key.id, reason: '   ', actor: actor, kind: 'support' }),
    refusal('invalid'),
  );
  await assert.rejects(reissueKey(db, 'no-such-key', actor), refusal('not_found'));
  assert.equal(await db.auditEvent.count(), eventsBefore);
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).disabledReason, 'first');
});

test('reissueKey: a new secret with the same settings; the old key disabled and linked; one audit event per key', async (t) => {
  const { db, owner, actor } = await storeDb(t);
  const old = await issueKey(
    db,
    {
      ownerId: owner.id,
      name: 'prod',
      tierId: 'pro',
      dailyQuota: 7,
      ratePerSecond: 3,
      expiresAt: new Date('2031-01-01T00:00:00Z'),
    },
    actor,
  );
  const { key, secret, replaced } = await reissueKey(db, old.key.id, actor);

  assert.notEqual(secret, old.secret);
  assert.equal(key.keyHash, hmac(secret));
  assert.deepEqual(
    [key.name, key.tierId, key.dailyQuota, key.ratePerSecond, key.expiresAt?.toISOString(), key.disabledAt],
    ['prod', 'pro', 7, 3, '2031-01-01T00:00:00.000Z', null],
  );
  assert.equal(replaced.replacedById, key.id);
  assert.equal(replaced.disabledReason, 'reissued');
  assert.ok(replaced.disabledAt);

  const oldEvents = (await auditOf(db, old.key.id)).map((e) => e.action);
  assert.deepEqual(oldEvents, ['key.issue', 'key.reissue']);
  const reissue = (await auditOf(db, old.key.id))[1];
  assert.equal(JSON.parse(reissue.after!).replacedById, key.id);
  assert.equal(JSON.parse(reissue.before!).disabledAt, null);
  const newEvents = await auditOf(db, key.id);
  assert.deepEqual(
    newEvents.map((e) => [e.action, e.actorLabel]),
    [['key.issue', actor.label]],
  );
  assert.equal(JSON.parse(newEvents[0].after!).replaces, old.key.id);

  await assert.rejects(reissueKey(db, old.key.id, actor), /already reissued/);
});

test('reissueKey with a grace period: the old key stops at now + grace, the audit records the choice, both reports say so', async (t) => {
  const { db, owner, actor } = await storeDb(t);
  const old = await issueKey(db, { ownerId: owner.id, name: 'deployed agent' }, actor);
  const now = Date.now();
  const { key, replaced } = await reissueKey(db, old.key.id, actor, { grace: '24h', now });

  assert.equal(replaced.disabledAt?.getTime(), now + 86_400_000);
  assert.deepEqual([replaced.replacedById, replaced.disabledReason], [key.id, 'reissued']);
  const reissue = (await auditOf(db, old.key.id)).find((e) => e.action === 'key.reissue')!;
  const after = JSON.parse(reissue.after!);
  assert.deepEqual(
    [after.graceSeconds, after.disabledAt, after.replacedById],
    [86_400, new Date(now + 86_400_000).toISOString(), key.id],
  );

  // The old key: replaced, works until the moment; the new key names its live predecessor.
  const oldReport = await keyReport(db, replaced, now + 1000);
  assert.deepEqual([oldReport.status, oldReport.worksUntil], ['replaced', new Date(now + 86_400_000).toISOString()]);
  const newReport = await keyReport(db, key, now + 1000);
  assert.deepEqual(newReport.predecessor, {
    id: old.key.id,
    display: oldReport.display,
    worksUntil: new Date(now + 86_400_000).toISOString(),
  });
  // Once the moment has passed: replaced (no longer working), and the successor no longer mentions it.
  const later = await keyReport(db, replaced, now + 86_400_000);
  assert.deepEqual([later.status, later.worksUntil], ['replaced', null]);
  assert.equal((await keyReport(db, key, now + 86_400_000)).predecessor, null);

  // Without a grace period the old key stops at once, and the audit says 0.
  const other = await issueKey(db, { ownerId: owner.id, name: 'laptop' }, actor);
  const atOnce = await reissueKey(db, other.key.id, actor);
  assert.ok(atOnce.replaced.disabledAt!.getTime() <= Date.now());
  const event = (await auditOf(db, other.key.id)).find((e) => e.action === 'key.reissue')!;
  assert.equal(JSON.parse(event.after!).graceSeconds, 0);
});

test('every grace choice gives its period; anything else is refused with the list, and nothing is written', async (t) => {
  const { db, owner, actor } = await storeDb(t);
  for (const [grace, seconds] of Object.entries(REISSUE_GRACE_PERIODS)) {
    const { key } = await issueKey(db, { ownerId: owner.id, name: grace }, actor);
    const now = Date.now();
    const { replaced } = await reissueKey(db, key.id, actor, { grace: grace as ReissueGrace, now });
    assert.equal(replaced.disabledAt?.getTime(), now + seconds * 1000, grace);
  }
  const { key } = await issueKey(db, { ownerId: owner.id, name: 'refused' }, actor);
  const keysBefore = await db.apiKey.count();
  for (const bad of ['2h', '', '1H', '3600', 'never']) {
    await assert.rejects(
      reissueKey(db, key.id, actor, { grace: bad as ReissueGrace }),
      (error: unknown) =>
        error instanceof KeyStoreError && error.code === 'invalid' && /none, 1h, 24h, 7d/.test(error.message),
      bad,
    );
  }
  assert.equal(await db.apiKey.count(), keysBefore);
  assert.deepEqual(
    (await auditOf(db, key.id)).map((e) => e.action),
    ['key.issue'],
  );
});

test('a key already disabled keeps its disabledAt when reissued with a grace period (no second life)', async (t) => {
  const { db, owner, actor } = await storeDb(t);
  const { key } = await issueKey(db, { ownerId: owner.id, name: 'off' }, actor);
  const disabled = await disableKey(db, { keyId: key.id, reason: 'leaked', actor: actor, kind: 'support' });
  const { replaced } = await reissueKey(db, key.id, actor, { grace: '7d' });
  assert.deepEqual(
    [replaced.disabledAt?.getTime(), replaced.disabledReason],
    [disabled.disabledAt?.getTime(), 'leaked'],
  );
  const event = (await auditOf(db, key.id)).find((e) => e.action === 'key.reissue')!;
  assert.equal(JSON.parse(event.after!).graceSeconds, 0);
});

test('disabling an old key during its grace period stops it at once; re-enabling it stays refused', async (t) => {
  const { url, db, owner, actor } = await storeDb(t);
  await withHotPath(url, async (hotPath) => {
    const verifyKey = createKeyVerifier(hotPath);
    const old = await issueKey(db, { ownerId: owner.id, name: 'agent' }, actor);
    await reissueKey(db, old.key.id, actor, { grace: '7d' });
    assert.equal((await verifyKey(old.secret, Date.now())).ok, true, 'works during the grace period');

    const before = Date.now();
    const disabled = await disableKey(db, {
      keyId: old.key.id,
      reason: 'leaked in a public repository',
      actor: actor,
      kind: 'leaked',
    });
    assert.ok(disabled.disabledAt!.getTime() >= before && disabled.disabledAt!.getTime() <= Date.now());
    assert.equal(disabled.disabledReason, 'leaked in a public repository');
    const refused = await verifyKey(old.secret, Date.now());
    assert.ok(!refused.ok && refused.reason === 'disabled', 'refused from the next call');
    await assert.rejects(
      disableKey(db, { keyId: old.key.id, reason: 'again', actor: actor, kind: 'support' }),
      /replaced by a reissued key/,
    );
    await assert.rejects(enableKey(db, old.key.id, 'it is safe', actor), /reissued as key/);
  });
});

test('the verifier switches an old secret off at the end of its grace period, from its cached row', async (t) => {
  const { url, db, owner, actor } = await storeDb(t);
  await withHotPath(url, async (hotPath) => {
    let reads = 0;
    const verifyKey = createKeyVerifier({
      keysVersion: () => hotPath.keysVersion(),
      findKeyByHash: (hash, deadline) => {
        reads++;
        return hotPath.findKeyByHash(hash, deadline);
      },
    });
    const old = await issueKey(db, { ownerId: owner.id, name: 'agent' }, actor);
    const { secret, replaced } = await reissueKey(db, old.key.id, actor, { grace: '1h' });
    const stopsAt = replaced.disabledAt!.getTime();

    const justBefore = await verifyKey(old.secret, stopsAt - 1);
    assert.ok(justBefore.ok && justBefore.key.id === old.key.id, 'works 1 ms before the moment');
    assert.ok((await verifyKey(secret, stopsAt - 1)).ok, 'the new secret works too');
    const readsBefore = reads;
    const atTheMoment = await verifyKey(old.secret, stopsAt);
    assert.ok(!atTheMoment.ok && atTheMoment.reason === 'replaced', 'refused at the moment');
    assert.match(atTheMoment.ok ? '' : atTheMoment.message, /replaced on .*only the new secret works/);
    const justAfter = await verifyKey(old.secret, stopsAt + 1);
    assert.ok(!justAfter.ok && justAfter.reason === 'replaced', 'refused after it');
    assert.equal(reads, readsBefore, 'judged on the cached row: no re-read, no cache invalidation needed');
    assert.ok((await verifyKey(secret, stopsAt + 1)).ok, 'the new secret still works');
  });
});

test("reissueKey: every key of a reissue chain belongs to its first key's allowance; a new key starts its own", async (t) => {
  const { db, owner, actor } = await storeDb(t);
  const first = await issueKey(db, { ownerId: owner.id, name: 'ci' }, actor);
  const second = await reissueKey(db, first.key.id, actor);
  const third = await reissueKey(db, second.key.id, actor);
  assert.deepEqual(
    [second.key.lineageId, third.key.lineageId, third.replaced.lineageId],
    Array(3).fill(first.key.lineageId),
  );
  const other = await issueKey(db, { ownerId: owner.id, name: 'laptop' }, actor);
  assert.notEqual(other.key.lineageId, first.key.lineageId);
});

test('when the audit write fails, the key change is rolled back with it', async (t) => {
  const { url, db, owner, actor } = await storeDb(t);
  const { key } = await issueKey(db, { ownerId: owner.id, name: 'guarded' }, actor);
  breakAuditWrites(url);
  // Prisma reports the trigger's abort as a constraint violation in the audit insert; what matters is where it failed.
  const auditFailed = /auditEvent\.create/;

  await assert.rejects(disableKey(db, { keyId: key.id, reason: 'leaked', actor: actor, kind: 'support' }), auditFailed);
  const after = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
  assert.deepEqual(
    [after.disabledAt, after.disabledReason, after.disabledById],
    [null, null, null],
    'the key stays enabled',
  );

  await assert.rejects(reissueKey(db, key.id, actor), auditFailed);
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).replacedById, null);

  await assert.rejects(issueKey(db, { ownerId: owner.id, name: 'never issued' }, actor), auditFailed);
  assert.equal(await db.apiKey.count(), 1, 'neither the reissue nor the failed issue left a key behind');
  assert.equal(await db.auditEvent.count({ where: { keyId: key.id } }), 1, 'only the original issue event');
});

test('a stop reaches back along the chain only: the secrets a key replaced stop with it, its successor does not', async (t) => {
  const { db, owner, actor } = await storeDb(t);
  const first = await issueKey(db, { ownerId: owner.id, name: 'agent' }, actor);
  const second = await reissueKey(db, first.key.id, actor, { grace: '7d' });
  const third = await reissueKey(db, second.key.id, actor, { grace: '24h' });
  const row = (id: string) => db.apiKey.findUniqueOrThrow({ where: { id } });

  // The middle secret leaked: it and the one before it stop; the live key works on.
  const before = Date.now();
  await disableKey(db, { keyId: second.key.id, reason: 'seen in a CI log', actor: actor, kind: 'leaked' });
  const [a, b, c] = await Promise.all([row(first.key.id), row(second.key.id), row(third.key.id)]);
  assert.ok(a.disabledAt!.getTime() >= before && a.disabledAt!.getTime() <= Date.now(), 'the oldest stopped now');
  assert.deepEqual([a.stopKind, b.stopKind, c.stopKind, c.disabledAt], ['leaked', 'leaked', null, null]);
  assert.equal(a.disabledReason, 'reissued', 'the oldest keeps its own reason; its stopKind says what ended it');
  const graceEnd = (await auditOf(db, first.key.id)).filter((e) => e.action === 'key.grace_end');
  assert.equal(graceEnd.length, 1);
  assert.match(graceEnd[0].reason!, new RegExp(`the key it was reissued as \\(${second.key.id}\\) was disabled`));

  // Stopping the live key later touches only what still worked: nothing, and no second event.
  await disableKey(db, { keyId: third.key.id, reason: 'lost laptop', actor: actor, kind: 'owner' });
  assert.equal((await row(first.key.id)).stopKind, 'leaked');
  assert.equal(await db.auditEvent.count({ where: { action: 'key.grace_end' } }), 1);
});
