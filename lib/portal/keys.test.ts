/**
 * The developer's key operations on a real migrated SQLite database: every operation refuses another
 * developer's key (and staff, who use the support console) exactly as it refuses an id that does not
 * exist, leaving the key untouched; and each operation does what the key page promises, audited.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCRATCH_IP, scratchPortal } from '../../test/support/portal-db.ts';
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { KeyStoreError } from '../keys/errors.ts';
import { disableKey, issueKey } from '../keys/store.ts';
import { createKeyVerifier } from '../keys/verify.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { PortalInputError, PortalNotFound, type Viewer } from './access.ts';
import {
  createMyKey,
  disableMyKey,
  KEYS_SHOWN,
  listMyKeys,
  MAX_ACTIVE_KEYS,
  myKeyDetail,
  myKeyReport,
  reissueMyKey,
  renameMyKey,
  reportMyKeyLeaked,
} from './keys.ts';
import { keysStoppedByOthers } from './stopped-keys.ts';

const DAY = 86_400_000;

const auditOf = (db: Db, keyId: string) => db.auditEvent.findMany({ where: { keyId }, orderBy: { createdAt: 'asc' } });
const isNotFound = (error: unknown) => error instanceof PortalNotFound;
const isInputError = (pattern: RegExp) => (error: unknown) =>
  error instanceof PortalInputError && pattern.test(error.message);

test("authorization: every operation on another developer's key, or a key that does not exist, is PortalNotFound and changes nothing", async (t) => {
  const { db, ada, bob, support, actor } = await scratchPortal(t);
  const { key } = await createMyKey(db, ada, { name: 'ada laptop', expiryDays: 90 }, actor(ada));
  const snapshot = async () => ({
    row: await db.apiKey.findUniqueOrThrow({ where: { id: key.id } }),
    keys: await db.apiKey.count(),
    audit: await db.auditEvent.count(),
  });
  const before = await snapshot();

  const operations: [string, (viewer: Viewer, keyId: string) => Promise<unknown>][] = [
    ['myKeyReport', (v, id) => myKeyReport(db, v, id)],
    ['myKeyDetail', (v, id) => myKeyDetail(db, v, id)],
    ['renameMyKey', (v, id) => renameMyKey(db, v, id, 'taken over', actor(v))],
    ['disableMyKey', (v, id) => disableMyKey(db, v, id, undefined, actor(v))],
    ['reissueMyKey', (v, id) => reissueMyKey(db, v, id, actor(v))],
    ['reportMyKeyLeaked', (v, id) => reportMyKeyLeaked(db, v, id, actor(v))],
  ];
  for (const [name, run] of operations) {
    for (const [who, viewer, keyId] of [
      ['another developer', bob, key.id],
      ['a support user (the support console is their way in)', support, key.id],
      ['the owner, with an id that does not exist', ada, 'no-such-key'],
      ['the owner, with an empty id', ada, ''],
    ] as const) {
      await assert.rejects(run(viewer, keyId), isNotFound, `${name} as ${who}`);
    }
  }
  assert.deepEqual(await snapshot(), before, 'the key, the key count and the audit trail are unchanged');
  assert.deepEqual((await listMyKeys(db, bob)).keys, [], "the key is not in the other developer's list");
});

test('createMyKey: a free key per expiry choice (30, 90, 365 days or never), audited with the developer and their address', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  const now = Date.parse('2026-11-26T10:00:00Z');
  for (const expiryDays of [30, 90, 365, null] as const) {
    const { key, secret } = await createMyKey(
      db,
      ada,
      { name: `  expires ${expiryDays} `, expiryDays },
      actor(ada),
      now,
    );
    assert.match(secret, /^cf_[0-9A-Za-z]{38}$/);
    assert.deepEqual(
      [key.ownerId, key.name, key.tierId, key.dailyQuota, key.ratePerSecond, key.expiresAt?.getTime() ?? null],
      [ada.id, `expires ${expiryDays}`, 'free', null, null, expiryDays === null ? null : now + expiryDays * DAY],
    );
    const [event] = await auditOf(db, key.id);
    assert.deepEqual(
      [event.action, event.actorId, event.actorLabel, event.ip, event.targetUserId],
      ['key.issue', ada.id, 'developer:ada@example.test', SCRATCH_IP, ada.id],
    );
  }
});

test('createMyKey refuses a bad name or expiry, and more than the active-key limit, with what to do', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  await assert.rejects(
    createMyKey(db, ada, { name: '   ', expiryDays: 30 }, actor(ada)),
    isInputError(/name of 1 to 100 characters/),
  );
  await assert.rejects(
    createMyKey(db, ada, { name: 'x'.repeat(101), expiryDays: 30 }, actor(ada)),
    isInputError(/has 101 characters; the limit is 100/),
  );
  for (const expiryDays of [7, Number.NaN, -30, 30.5]) {
    await assert.rejects(
      createMyKey(db, ada, { name: 'odd expiry', expiryDays }, actor(ada)),
      isInputError(/30, 90 or 365 days, or never/),
    );
  }

  const now = Date.now();
  // An expired and a disabled key do not count towards the limit.
  await issueKey(db, { ownerId: ada.id, name: 'old', expiresAt: new Date(now - DAY) }, actor(ada));
  const keys = [];
  for (let i = 0; i < MAX_ACTIVE_KEYS; i++)
    keys.push((await createMyKey(db, ada, { name: `key ${i}`, expiryDays: null }, actor(ada))).key);
  await assert.rejects(
    createMyKey(db, ada, { name: 'one too many', expiryDays: null }, actor(ada)),
    isInputError(/20 active keys.*Disable a key you no longer use/),
  );
  await disableMyKey(db, ada, keys[0].id, undefined, actor(ada));
  await createMyKey(db, ada, { name: 'fits again', expiryDays: null }, actor(ada));
  assert.equal(await db.apiKey.count({ where: { ownerId: ada.id } }), MAX_ACTIVE_KEYS + 2);
});

test("listMyKeys: only my keys, newest first, with status, effective quota and today's calls from one grouped query", async (t) => {
  const { db, ada, bob, actor } = await scratchPortal(t);
  const now = Date.now();
  const { day } = quotaDayCalculator(config().quotaTimeZone)(now);
  const active = (await createMyKey(db, ada, { name: 'active', expiryDays: 30 }, actor(ada))).key;
  const small = (await issueKey(db, { ownerId: ada.id, name: 'small quota', dailyQuota: 2 }, actor(ada))).key;
  const expired = (
    await issueKey(db, { ownerId: ada.id, name: 'expired', expiresAt: new Date(now - 1000) }, actor(ada))
  ).key;
  const disabled = (await createMyKey(db, ada, { name: 'disabled', expiryDays: null }, actor(ada))).key;
  await disableMyKey(db, ada, disabled.id, undefined, actor(ada));
  const reissued = (await createMyKey(db, ada, { name: 'reissued', expiryDays: null }, actor(ada))).key;
  const successor = (await reissueMyKey(db, ada, reissued.id, actor(ada))).key;
  await createMyKey(db, bob, { name: 'bob', expiryDays: null }, actor(bob));

  await db.dailyUsage.createMany({
    data: [
      { keyId: active.id, day, tool: 'service_query_compound', successes: 10, failures: 2, rateLimited: 5 },
      { keyId: active.id, day, tool: 'service_list_compounds', successes: 1, failures: 0, rateLimited: 0 },
      {
        keyId: active.id,
        day: '2000-01-01',
        tool: 'service_query_compound',
        successes: 99,
        failures: 0,
        rateLimited: 0,
      },
      { keyId: small.id, day, tool: 'service_query_compound', successes: 2, failures: 0, rateLimited: 3 },
    ],
  });
  await db.apiKey.update({ where: { id: active.id }, data: { lastUsedAt: new Date(now - 60_000) } });

  // Listed as of now, after the disable: a disabledAt later than the listing's clock would read as still to come.
  const { keys, shown, quotaResetsAt } = await listMyKeys(db, ada, Date.now());
  assert.ok(Date.parse(quotaResetsAt) > now && Date.parse(quotaResetsAt) <= now + DAY);
  const row = (id: string) => keys.flatMap((k) => [k, ...k.replaces]).find((k) => k.id === id)!;
  assert.deepEqual(
    keys.map((k) => k.name),
    ['reissued', 'disabled', 'expired', 'small quota', 'active'],
  );
  assert.equal(keys[0].id, successor.id, 'the reissued key (same name) is the newest');
  assert.deepEqual(
    keys.map((k) => k.replaces.map((r) => r.id)),
    [[reissued.id], [], [], [], []],
    'the replaced key is folded under its successor',
  );
  assert.equal(shown, 6);
  assert.deepEqual(
    [active, small, expired, disabled, reissued, successor].map((k) => [
      row(k.id).status,
      row(k.id).usedToday,
      row(k.id).dailyQuota,
    ]),
    [
      ['active', 13, 1000],
      ['active', 2, 2],
      ['expired', 0, 1000],
      ['disabled', 0, 1000],
      ['replaced', 0, 1000],
      ['active', 0, 1000],
    ],
  );
  assert.match(row(active.id).display, /^cf_[0-9A-Za-z]{4}…[0-9A-Za-z]{4}$/);
  assert.equal(row(active.id).lastUsedAt, new Date(now - 60_000).toISOString());
  assert.equal(row(small.id).lastUsedAt, null);
});

test('renameMyKey: a new name with one key.rename event holding before and after, written in the same transaction', async (t) => {
  const { url, db, ada, actor } = await scratchPortal(t);
  const { key } = await createMyKey(db, ada, { name: 'laptop', expiryDays: 30 }, actor(ada));

  const renamed = await renameMyKey(db, ada, key.id, '  work laptop ', actor(ada));
  assert.equal(renamed.name, 'work laptop');
  const events = (await auditOf(db, key.id)).filter((e) => e.action === 'key.rename');
  assert.equal(events.length, 1);
  assert.deepEqual([events[0].actorId, events[0].ip, events[0].targetUserId], [ada.id, SCRATCH_IP, ada.id]);
  assert.equal(JSON.parse(events[0].before!).name, 'laptop');
  assert.equal(JSON.parse(events[0].after!).name, 'work laptop');

  await renameMyKey(db, ada, key.id, 'work laptop', actor(ada));
  assert.equal(
    (await auditOf(db, key.id)).filter((e) => e.action === 'key.rename').length,
    1,
    'an unchanged name writes nothing',
  );
  await assert.rejects(renameMyKey(db, ada, key.id, ' ', actor(ada)), isInputError(/1 to 100 characters/));

  // Same transaction: when the audit insert fails, the rename is rolled back.
  const raw = openSqliteFile(url);
  raw.exec(
    `CREATE TRIGGER audit_unavailable BEFORE INSERT ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'audit store unavailable'); END`,
  );
  raw.close();
  await assert.rejects(renameMyKey(db, ada, key.id, 'never saved', actor(ada)), /auditEvent\.create/);
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).name, 'work laptop');
});

test('disableMyKey: disabled at once with the owner\'s reason (or "disabled by owner"), audited; a second time is refused', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  const first = (await createMyKey(db, ada, { name: 'first', expiryDays: null }, actor(ada))).key;
  const second = (await createMyKey(db, ada, { name: 'second', expiryDays: null }, actor(ada))).key;

  const disabled = await disableMyKey(db, ada, first.id, undefined, actor(ada));
  assert.deepEqual([disabled.disabledReason, disabled.disabledById], ['disabled by owner', ada.id]);
  assert.ok(disabled.disabledAt);
  const event = (await auditOf(db, first.id)).find((e) => e.action === 'key.disable')!;
  assert.deepEqual([event.reason, event.actorId, event.ip], ['disabled by owner', ada.id, SCRATCH_IP]);
  assert.equal(JSON.parse(event.before!).disabledAt, null);

  assert.equal(
    (await disableMyKey(db, ada, second.id, '  moved to a new laptop ', actor(ada))).disabledReason,
    'moved to a new laptop',
  );
  // The key store's one refusal, which the form shows as it is (lib/portal/action-result.ts).
  const alreadyDisabled = (error: unknown) =>
    error instanceof KeyStoreError &&
    error.code === 'already_disabled' &&
    /already disabled \(since/.test(error.message);
  await assert.rejects(disableMyKey(db, ada, first.id, undefined, actor(ada)), alreadyDisabled);
  await assert.rejects(reportMyKeyLeaked(db, ada, first.id, actor(ada)), alreadyDisabled);
  const detail = await myKeyDetail(db, ada, first.id);
  assert.deepEqual(detail.actions, {
    disable: false,
    reportLeaked: false,
    reissue: true,
    reissueRefusal: null,
    reissueOfStoppedKey: true,
    predecessorInGrace: null,
    upgrade: false,
  });
  assert.equal(detail.report.status, 'disabled');
});

test('reissueMyKey: the new secret works at once and the old one is refused, with the same settings', async (t) => {
  const { url, db, ada, actor } = await scratchPortal(t);
  const hotPath = openSqliteHotPath(openSqliteFile(url));
  t.after(() => hotPath.close());
  const verifyKey = createKeyVerifier(hotPath);
  const old = await createMyKey(db, ada, { name: 'agent', expiryDays: 365 }, actor(ada));
  assert.equal((await verifyKey(old.secret, Date.now())).ok, true);

  const { key, secret, replaced } = await reissueMyKey(db, ada, old.key.id, actor(ada));
  assert.notEqual(secret, old.secret);
  const fresh = await verifyKey(secret, Date.now());
  assert.ok(fresh.ok && fresh.key.id === key.id, 'the new secret is accepted');
  const stale = await verifyKey(old.secret, Date.now());
  assert.ok(!stale.ok && stale.reason === 'replaced', 'the old secret is refused');
  assert.deepEqual(
    [key.name, key.tierId, key.expiresAt?.getTime(), key.ownerId],
    [old.key.name, old.key.tierId, old.key.expiresAt?.getTime(), ada.id],
  );
  assert.equal(replaced.replacedById, key.id);
  const reissue = (await auditOf(db, old.key.id)).find((e) => e.action === 'key.reissue')!;
  assert.deepEqual([reissue.actorId, reissue.ip], [ada.id, SCRATCH_IP]);

  await assert.rejects(reissueMyKey(db, ada, old.key.id, actor(ada)), isInputError(/already reissued/));
  assert.deepEqual((await myKeyDetail(db, ada, old.key.id)).actions, {
    disable: false,
    reportLeaked: false,
    reissue: false,
    reissueRefusal: 'This key was already reissued; reissue the key that replaced it instead.',
    reissueOfStoppedKey: false,
    predecessorInGrace: null,
    upgrade: false,
  });
});

test('reissueMyKey with a grace period: both secrets work until then, the old key says so and can still be disabled; a bad choice is refused', async (t) => {
  const { url, db, ada, actor } = await scratchPortal(t);
  const hotPath = openSqliteHotPath(openSqliteFile(url));
  try {
    const verifyKey = createKeyVerifier(hotPath);
    const old = await createMyKey(db, ada, { name: 'agent', expiryDays: null }, actor(ada));
    for (const bad of ['2h', 'forever', 3600, ['1h']]) {
      await assert.rejects(
        reissueMyKey(db, ada, old.key.id, actor(ada), Date.now(), bad),
        isInputError(/Choose when the old secret stops: now, in 1 hour, in 24 hours or in 7 days/),
      );
    }
    assert.equal(await db.apiKey.count({ where: { ownerId: ada.id } }), 1, 'nothing written');

    const now = Date.now();
    const { key, secret } = await reissueMyKey(db, ada, old.key.id, actor(ada), now, '1h');
    const stopsAt = new Date(now + 3_600_000).toISOString();
    assert.ok((await verifyKey(secret, Date.now())).ok, 'the new secret works');
    assert.ok((await verifyKey(old.secret, Date.now())).ok, 'the old secret works during its grace period');

    const listed = (await listMyKeys(db, ada)).keys.flatMap((k) => [k, ...k.replaces]);
    assert.deepEqual(
      listed.map((k) => [k.id, k.status, k.worksUntil]),
      [
        [key.id, 'active', null],
        [old.key.id, 'replaced', stopsAt],
      ],
    );
    const oldDetail = await myKeyDetail(db, ada, old.key.id);
    assert.equal(oldDetail.report.worksUntil, stopsAt);
    assert.deepEqual(oldDetail.actions, {
      disable: true,
      reportLeaked: true,
      reissue: false,
      reissueRefusal: 'This key was already reissued; reissue the key that replaced it instead.',
      reissueOfStoppedKey: false,
      predecessorInGrace: null,
      upgrade: false,
    });
    assert.equal((await myKeyReport(db, ada, key.id)).predecessor?.worksUntil, stopsAt);
    // The new key's disable and leak dialogs say the old secret stops with it.
    assert.deepEqual((await myKeyDetail(db, ada, key.id)).actions.predecessorInGrace, {
      id: old.key.id,
      display: oldDetail.report.display,
      worksUntil: stopsAt,
    });

    await reportMyKeyLeaked(db, ada, old.key.id, actor(ada));
    const refused = await verifyKey(old.secret, Date.now());
    assert.ok(!refused.ok && refused.reason === 'disabled', 'reported leaked: refused at once');
    assert.deepEqual(
      (await listMyKeys(db, ada)).keys.flatMap((k) => [k, ...k.replaces]).map((k) => k.worksUntil),
      [null, null],
    );
    assert.equal((await myKeyDetail(db, ada, old.key.id)).actions.disable, false);
  } finally {
    await hotPath.close();
  }
});

test('the owner reissues a key that staff or a leak report disabled: the old secret stays off, tier and limits carry over; an expired key is refused', async (t) => {
  const { db, ada, support, actor } = await scratchPortal(t);
  const byStaff = (await createMyKey(db, ada, { name: 'abused', expiryDays: null }, actor(ada))).key;
  await db.apiKey.update({ where: { id: byStaff.id }, data: { tierId: 'pro', dailyQuota: 5000, ratePerSecond: 7 } });
  const disabled = await disableKey(db, { keyId: byStaff.id, reason: 'abuse', actor: actor(support), kind: 'support' });
  const detail = await myKeyDetail(db, ada, byStaff.id);
  assert.deepEqual(
    [detail.actions.reissue, detail.actions.reissueRefusal, detail.actions.reissueOfStoppedKey],
    [true, null, true],
  );
  assert.equal(detail.report.disabledBy, 'staff');
  assert.deepEqual(
    (await keysStoppedByOthers(db, ada)).map((k) => [k.id, k.by, k.reason]),
    [[byStaff.id, 'staff', 'abuse']],
  );

  // A grace period asked for anyway cannot turn the disabled secret back on.
  const { key: successor } = await reissueMyKey(db, ada, byStaff.id, actor(ada), Date.now(), '24h');
  assert.deepEqual([successor.tierId, successor.dailyQuota, successor.ratePerSecond], ['pro', 5000, 7]);
  const old = await db.apiKey.findUniqueOrThrow({ where: { id: byStaff.id } });
  assert.deepEqual(
    [old.disabledAt, old.disabledReason, old.replacedById],
    [disabled.disabledAt, 'abuse', successor.id],
  );
  assert.deepEqual(await keysStoppedByOthers(db, ada), [], 'reissued: no longer in the notice');

  // A public leak report (no user behind it) reads as one, with the place it was found.
  const leaked = (await createMyKey(db, ada, { name: 'pasted', expiryDays: null }, actor(ada))).key;
  await disableKey(db, {
    keyId: leaked.id,
    reason: 'leaked: https://gist.example/x',
    actor: { label: 'leak report' },
    kind: 'leaked',
  });
  assert.deepEqual(
    (await keysStoppedByOthers(db, ada)).map((k) => [k.by, k.reason]),
    [['leak_report', 'https://gist.example/x']],
  );
  // What the owner disabled themselves is no notice.
  const own = (await createMyKey(db, ada, { name: 'mine', expiryDays: null }, actor(ada))).key;
  await disableMyKey(db, ada, own.id, undefined, actor(ada));
  assert.equal((await keysStoppedByOthers(db, ada)).length, 1);
  assert.equal((await myKeyDetail(db, ada, own.id)).report.disabledBy, 'owner');

  const expired = (
    await issueKey(db, { ownerId: ada.id, name: 'old', expiresAt: new Date(Date.now() - 1000) }, actor(ada))
  ).key;
  await assert.rejects(reissueMyKey(db, ada, expired.id, actor(ada)), isInputError(/expired.*Create a new key/));
  assert.equal(await db.apiKey.count({ where: { ownerId: ada.id } }), 5, 'no key was issued for the expired one');
});

test('reportMyKeyLeaked: disabled at once, audited as key.leak_disable "reported leaked by the owner"; the owner may then reissue', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  const { key } = await createMyKey(db, ada, { name: 'pushed to github', expiryDays: 90 }, actor(ada));
  assert.equal((await myKeyDetail(db, ada, key.id)).actions.upgrade, true);

  const disabled = await reportMyKeyLeaked(db, ada, key.id, actor(ada));
  assert.ok(disabled.disabledAt);
  assert.equal(disabled.disabledReason, 'reported leaked by the owner');
  const events = (await auditOf(db, key.id)).filter((e) => e.action === 'key.leak_disable');
  assert.equal(events.length, 1);
  assert.deepEqual(
    [events[0].reason, events[0].actorId, events[0].ip, events[0].targetUserId],
    ['reported leaked by the owner', ada.id, SCRATCH_IP, ada.id],
  );
  assert.equal(JSON.parse(events[0].after!).disabledReason, 'reported leaked by the owner');

  const { key: successor } = await reissueMyKey(db, ada, key.id, actor(ada));
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).replacedById, successor.id);
});

test('listMyKeys: the newest KEYS_SHOWN keys, and how many there are in all (disabled keys pile up)', async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  for (let i = 0; i < KEYS_SHOWN + 2; i++) await issue(ada, `key ${i}`);
  const list = await listMyKeys(db, ada);
  assert.equal(list.total, KEYS_SHOWN + 2);
  assert.equal(list.keys.length, KEYS_SHOWN);
  assert.equal(list.keys[0].name, `key ${KEYS_SHOWN + 1}`, 'newest first');
});
