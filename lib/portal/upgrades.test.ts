/**
 * Upgrade requests on a real SQLite database: who may do what (everything else is a 404), what a
 * request must say, and that an approval changes the key's tier, writes its audit event and decides
 * the request in one transaction.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { disableKey, reissueKey } from '../keys/store.ts';
import { PortalInputError, PortalNotFound } from './access.ts';
import {
  approveUpgrade,
  declineUpgrade,
  myUpgradeRequests,
  requestUpgrade,
  tierComparison,
  upgradeableKeys,
  upgradeQueue,
} from './upgrades.ts';

const ASK = {
  useCase: 'Our lab assistant agent looks up vapour pressures for every reagent.',
  expectedDailyCalls: 20_000,
  contact: 'ada@example.test',
};

test('authorization: developers get 404 for every staff operation and for requests on keys that are not theirs', async (t) => {
  const { db, ada, bob, support, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const request = await requestUpgrade(db, ada, { ...ASK, keyId: key.id });

  await assert.rejects(upgradeQueue(db, ada), PortalNotFound);
  await assert.rejects(approveUpgrade(db, ada, request.id), PortalNotFound);
  await assert.rejects(declineUpgrade(db, ada, request.id, 'no'), PortalNotFound);
  await assert.rejects(requestUpgrade(db, bob, { ...ASK, keyId: key.id }), PortalNotFound, 'someone else’s key');
  await assert.rejects(
    requestUpgrade(db, support, { ...ASK, keyId: key.id }),
    PortalNotFound,
    'staff ask for their own keys only',
  );
  await assert.rejects(requestUpgrade(db, ada, { ...ASK, keyId: 'no-such-key' }), PortalNotFound);
  await assert.rejects(approveUpgrade(db, support, 'no-such-request'), PortalNotFound);
  assert.deepEqual(await myUpgradeRequests(db, bob), [], 'bob does not see ada’s request');
  const unchanged = await db.upgradeRequest.findUniqueOrThrow({ where: { id: request.id } });
  assert.equal(unchanged.status, 'pending');
});

test('a request needs a use case, a whole expected volume and a contact, within their limits; one pending per key', async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const refused = async (input: Partial<typeof ASK>, message: RegExp) =>
    assert.rejects(
      requestUpgrade(db, ada, { ...ASK, ...input, keyId: key.id }),
      (e: Error) => e instanceof PortalInputError && message.test(e.message),
    );
  await refused({ useCase: '  ' }, /Describe your use case/);
  await refused({ useCase: 'x'.repeat(2001) }, /under 2000 characters/);
  await refused({ expectedDailyCalls: 0 }, /whole number of at least 1/);
  await refused({ expectedDailyCalls: 1.5 }, /whole number of at least 1/);
  await refused({ contact: '' }, /how staff can reach you/);
  await refused({ contact: 'x'.repeat(201) }, /under 200 characters/);
  assert.equal(await db.upgradeRequest.count(), 0);

  const created = await requestUpgrade(db, ada, { ...ASK, useCase: `  ${ASK.useCase}  `, keyId: key.id });
  assert.deepEqual(
    [created.status, created.useCase, created.expectedDailyCalls, created.userId],
    ['pending', ASK.useCase, 20_000, ada.id],
  );
  await refused({}, /already a pending request/);
});

test('only active free keys can ask: pro, disabled and expired keys are refused and not offered', async (t) => {
  const { db, ada, bob, issue, actor } = await scratchPortal(t);
  const free = await issue(ada, 'free one');
  const pro = await issue(ada, 'pro one', 'pro');
  const off = await issue(ada, 'off one');
  await disableKey(db, { keyId: off.key.id, reason: 'lost laptop', actor: actor(ada), kind: 'owner' });
  const old = await issue(ada, 'old one');
  await db.apiKey.update({ where: { id: old.key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  await issue(bob, 'bob’s');

  assert.deepEqual(
    (await upgradeableKeys(db, ada)).map((k) => k.name),
    ['free one'],
  );
  await assert.rejects(requestUpgrade(db, ada, { ...ASK, keyId: pro.key.id }), /already on the pro tier/);
  await assert.rejects(
    requestUpgrade(db, ada, { ...ASK, keyId: off.key.id }),
    /is disabled; request Pro for an active key/,
  );
  await assert.rejects(requestUpgrade(db, ada, { ...ASK, keyId: old.key.id }), /is expired/);
  assert.ok(free);

  // A reissued key in its grace period still works, but Pro is asked for its successor.
  const rolling = await issue(ada, 'rolling');
  const successor = await reissueKey(db, rolling.key.id, actor(ada), { grace: '24h' });
  assert.deepEqual(
    (await upgradeableKeys(db, ada)).map((k) => k.name),
    ['free one', 'rolling'],
  );
  assert.equal((await upgradeableKeys(db, ada)).at(-1)?.id, successor.key.id);
  await assert.rejects(
    requestUpgrade(db, ada, { ...ASK, keyId: rolling.key.id }),
    /was reissued; request Pro for the key that replaced it/,
  );
});

test('what Pro gives comes from the Tier table', async (t) => {
  const { db } = await scratchPortal(t);
  await db.tier.update({ where: { id: 'pro' }, data: { ratePerSecond: 40 } });
  const { free, pro } = await tierComparison(db);
  assert.deepEqual([free.dailyQuota, free.ratePerSecond, pro.dailyQuota, pro.ratePerSecond], [1000, 1, 100_000, 40]);
  assert.match(pro.description, /100,000 calls per day/);
});

test('approval: the key becomes pro with a key.update audit event, the request is approved with who, when and the note', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const { key } = await issue(ada);
  const request = await requestUpgrade(db, ada, { ...ASK, keyId: key.id });

  const outcome = await approveUpgrade(db, support, request.id, ' Welcome to Pro ', actor(support));
  assert.deepEqual(outcome, {
    keyId: key.id,
    display: outcome.display,
    alreadyPro: false,
    disabled: false,
    followedReissue: false,
  });
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).tierId, 'pro');

  const decided = await db.upgradeRequest.findUniqueOrThrow({ where: { id: request.id } });
  assert.deepEqual(
    [decided.status, decided.decidedById, decided.decisionNote],
    ['approved', support.id, 'Welcome to Pro'],
  );
  assert.ok(decided.decidedAt && Date.now() - decided.decidedAt.getTime() < 60_000);

  const [event] = await db.auditEvent.findMany({ where: { keyId: key.id, action: 'key.update' } });
  assert.deepEqual(
    [
      event.actorId,
      event.actorLabel,
      event.ip,
      event.targetUserId,
      JSON.parse(event.before!),
      JSON.parse(event.after!),
    ],
    [support.id, 'support:grace@example.test', '203.0.113.9', ada.id, { tierId: 'free' }, { tierId: 'pro' }],
  );
  assert.equal(event.reason, `upgrade request ${request.id} approved`);

  const [mine] = await myUpgradeRequests(db, ada);
  assert.deepEqual(
    [mine.status, mine.decisionNote, mine.decidedBy, mine.key.tier],
    ['approved', 'Welcome to Pro', 'grace@example.test', 'pro'],
  );
  await assert.rejects(approveUpgrade(db, support, request.id), /already approved/);
  await assert.rejects(declineUpgrade(db, support, request.id, 'changed my mind'), /already approved/);
});

test('approval is one transaction: when the audit write fails, neither the tier nor the request changes', async (t) => {
  const { db, ada, support, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const request = await requestUpgrade(db, ada, { ...ASK, keyId: key.id });
  const raw = openSqliteFile(process.env.DATABASE_URL!);
  raw.exec(
    `CREATE TRIGGER audit_unavailable BEFORE INSERT ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'audit store unavailable'); END`,
  );
  raw.close();

  // Prisma reports the trigger's abort as a failed audit insert; what matters is where it failed.
  await assert.rejects(approveUpgrade(db, support, request.id), /auditEvent\.create/);
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).tierId, 'free');
  assert.equal((await db.upgradeRequest.findUniqueOrThrow({ where: { id: request.id } })).status, 'pending');
});

test('decline needs a note, leaves the key alone, and the developer sees the note', async (t) => {
  const { db, ada, admin, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const request = await requestUpgrade(db, ada, { ...ASK, keyId: key.id });
  await assert.rejects(declineUpgrade(db, admin, request.id, '   '), /Write a note for the developer/);
  await declineUpgrade(db, admin, request.id, 'Please describe the workload in more detail.');
  const [mine] = await myUpgradeRequests(db, ada);
  assert.deepEqual(
    [mine.status, mine.decisionNote, mine.decidedBy, mine.key.tier],
    ['declined', 'Please describe the workload in more detail.', 'root@example.test', 'free'],
  );
  assert.equal(await db.auditEvent.count({ where: { keyId: key.id, action: 'key.update' } }), 0);
  // Declined is not pending: the developer may ask again.
  await requestUpgrade(db, ada, { ...ASK, keyId: key.id });
});

test('approving after the key was disabled upgrades it (still disabled); after a reissue, the successor gets Pro', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const first = await issue(ada, 'first');
  const second = await issue(ada, 'second');
  const r1 = await requestUpgrade(db, ada, { ...ASK, keyId: first.key.id });
  const r2 = await requestUpgrade(db, ada, { ...ASK, keyId: second.key.id });
  await disableKey(db, { keyId: first.key.id, reason: 'owner lost it', actor: actor(ada), kind: 'owner' });
  const successor = await reissueKey(db, second.key.id, actor(ada));

  const disabled = await approveUpgrade(db, support, r1.id);
  assert.deepEqual([disabled.disabled, disabled.followedReissue], [true, false]);
  const firstNow = await db.apiKey.findUniqueOrThrow({ where: { id: first.key.id } });
  assert.deepEqual([firstNow.tierId, Boolean(firstNow.disabledAt)], ['pro', true]);

  const reissued = await approveUpgrade(db, support, r2.id);
  assert.deepEqual([reissued.keyId, reissued.followedReissue], [successor.key.id, true]);
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: successor.key.id } })).tierId, 'pro');
  assert.equal(
    (await db.apiKey.findUniqueOrThrow({ where: { id: second.key.id } })).tierId,
    'free',
    'the dead secret is left as it was',
  );
});

test('the queue lists pending requests oldest first, then decisions newest first', async (t) => {
  const { db, ada, bob, support, issue } = await scratchPortal(t);
  const a = await requestUpgrade(db, ada, { ...ASK, keyId: (await issue(ada, 'a')).key.id });
  const b = await requestUpgrade(db, bob, { ...ASK, keyId: (await issue(bob, 'b')).key.id });
  const c = await requestUpgrade(db, ada, { ...ASK, keyId: (await issue(ada, 'c')).key.id });
  await db.upgradeRequest.update({ where: { id: a.id }, data: { createdAt: new Date(Date.now() - 3000) } });
  await db.upgradeRequest.update({ where: { id: b.id }, data: { createdAt: new Date(Date.now() - 2000) } });
  await declineUpgrade(db, support, b.id, 'not now');

  const queue = await upgradeQueue(db, support);
  assert.deepEqual(
    queue.pending.map((r) => r.id),
    [a.id, c.id],
  );
  assert.deepEqual(
    queue.decided.map((r) => [r.id, r.status, r.requester]),
    [[b.id, 'declined', 'bob@example.test']],
  );
});

test('a request says which door it came through: null for the portal, the channel for a messaging app', async (t) => {
  const { db, ada, support, issue } = await scratchPortal(t);
  const portal = await requestUpgrade(db, ada, { ...ASK, keyId: (await issue(ada, 'portal')).key.id });
  const chat = await requestUpgrade(db, ada, { ...ASK, keyId: (await issue(ada, 'chat')).key.id, channel: 'wechat' });

  const channels = (views: { id: string; channel: string | null }[]) =>
    Object.fromEntries(views.map((r) => [r.id, r.channel]));
  const expected = { [portal.id]: null, [chat.id]: 'wechat' };
  assert.deepEqual(channels(await myUpgradeRequests(db, ada)), expected);
  assert.deepEqual(channels((await upgradeQueue(db, support)).pending), expected);
});
