/**
 * The authorization matrix of the staff and admin operations, and role changes. Every operation is
 * called as the wrong role: each must answer PortalNotFound (a 404, like a page that does not exist)
 * and change nothing.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { UserStoreError } from '../auth/users.ts';
import { PortalNotFound, type Viewer } from './access.ts';
import { auditTrail } from './audit-trail.ts';
import {
  bulkDisableLeaked,
  searchKeys,
  staffChangeSettings,
  staffDisableKey,
  staffEnableKey,
  staffKeyDetail,
  staffKeyReport,
  staffReissueKey,
} from './support.ts';
import { approveUpgrade, declineUpgrade, requestUpgrade, upgradeQueue } from './upgrades.ts';
import { changeUserRole, listUsers } from './users.ts';

const SETTINGS = { tierId: 'pro', dailyQuota: '5', ratePerSecond: '', expiresOn: '' };

async function world(t: Parameters<typeof scratchPortal>[0]) {
  const portal = await scratchPortal(t);
  const { db, ada, bob, issue } = portal;
  const active = await issue(bob, 'bob active');
  const off = await issue(bob, 'bob off');
  await db.apiKey.update({ where: { id: off.key.id }, data: { disabledAt: new Date(), disabledReason: 'test' } });
  const own = await issue(ada, 'ada own');
  const request = await requestUpgrade(db, bob, {
    keyId: active.key.id,
    useCase: 'agents',
    expectedDailyCalls: 5000,
    contact: 'bob@example.test',
  });
  const snapshot = async () =>
    JSON.stringify([
      await db.apiKey.findMany({ orderBy: { id: 'asc' } }),
      await db.upgradeRequest.findMany({ orderBy: { id: 'asc' } }),
      await db.user.findMany({ orderBy: { id: 'asc' } }),
      await db.auditEvent.count(),
    ]);
  return { ...portal, active, off, own, request, snapshot };
}

type World = Awaited<ReturnType<typeof world>>;

/** Every staff operation, as `viewer`, on bob's keys and request. */
function staffOperations(w: World, viewer: Viewer): [string, () => Promise<unknown>][] {
  const { db, active, off, request } = w;
  return [
    ['searchKeys', () => searchKeys(db, viewer, 'bob@example.test')],
    ['searchKeys by secret', () => searchKeys(db, viewer, active.secret)],
    ['staffKeyDetail', () => staffKeyDetail(db, viewer, active.key.id)],
    ['staffKeyReport', () => staffKeyReport(db, viewer, active.key.id)],
    ['staffDisableKey', () => staffDisableKey(db, viewer, active.key.id, 'leaked')],
    ['staffEnableKey', () => staffEnableKey(db, viewer, off.key.id, 'safe')],
    ['staffReissueKey', () => staffReissueKey(db, viewer, active.key.id)],
    ['staffChangeSettings', () => staffChangeSettings(db, viewer, active.key.id, SETTINGS)],
    ['bulkDisableLeaked', () => bulkDisableLeaked(db, viewer, `found ${active.secret}`, 'gist')],
    ['auditTrail', () => auditTrail(db, viewer, {})],
    ['upgradeQueue', () => upgradeQueue(db, viewer)],
    ['approveUpgrade', () => approveUpgrade(db, viewer, request.id, 'ok')],
    ['declineUpgrade', () => declineUpgrade(db, viewer, request.id, 'no')],
  ];
}

function adminOperations(w: World, viewer: Viewer): [string, () => Promise<unknown>][] {
  return [
    ['listUsers', () => listUsers(w.db, viewer)],
    ['changeUserRole', () => changeUserRole(w.db, viewer, w.bob.id, 'admin')],
    ['changeUserRole (self-promotion)', () => changeUserRole(w.db, viewer, viewer.id, 'admin')],
  ];
}

async function allRefused(operations: [string, () => Promise<unknown>][]) {
  for (const [name, run] of operations) {
    await assert.rejects(run(), PortalNotFound, `${name} must answer 404`);
  }
}

test('a developer gets 404 from every staff and admin operation, even on their own key, and nothing changes', async (t) => {
  const w = await world(t);
  const before = await w.snapshot();
  await allRefused(staffOperations(w, w.ada));
  await allRefused(adminOperations(w, w.ada));
  // Their own key does not open the staff operations either.
  await assert.rejects(staffDisableKey(w.db, w.ada, w.own.key.id, 'mine'), PortalNotFound);
  await assert.rejects(staffChangeSettings(w.db, w.ada, w.own.key.id, SETTINGS), PortalNotFound);
  assert.equal(await w.snapshot(), before);
});

test('a developer asking for Pro on someone else’s key gets 404', async (t) => {
  const w = await world(t);
  await assert.rejects(
    requestUpgrade(w.db, w.ada, { keyId: w.active.key.id, useCase: 'x', expectedDailyCalls: 1, contact: 'x' }),
    PortalNotFound,
  );
});

test('support gets 404 from the admin operations; an admin may do everything support does', async (t) => {
  const w = await world(t);
  const before = await w.snapshot();
  await allRefused(adminOperations(w, w.support));
  assert.equal(await w.snapshot(), before);
  for (const [name, run] of staffOperations(w, w.admin).filter(([name]) =>
    ['searchKeys', 'staffKeyDetail', 'auditTrail', 'upgradeQueue'].includes(name),
  )) {
    await assert.doesNotReject(run(), name);
  }
});

test('staff get 404 for a key or request that does not exist', async (t) => {
  const w = await world(t);
  await assert.rejects(staffKeyDetail(w.db, w.support, 'nope'), PortalNotFound);
  await assert.rejects(staffDisableKey(w.db, w.support, 'nope', 'x'), PortalNotFound);
  await assert.rejects(approveUpgrade(w.db, w.support, 'nope'), PortalNotFound);
  await assert.rejects(changeUserRole(w.db, w.admin, 'nope', 'support'), PortalNotFound);
});

test('an admin grants a role: user.role audit event with before/after, actor and IP, in the same transaction', async (t) => {
  const w = await world(t);
  const outcome = await changeUserRole(w.db, w.admin, w.bob.id, 'support', w.actor(w.admin));
  assert.deepEqual(outcome, { email: 'bob@example.test', role: 'support' });
  const [event] = await w.db.auditEvent.findMany({ where: { action: 'user.role' } });
  assert.deepEqual(
    [
      event.actorId,
      event.actorLabel,
      event.ip,
      event.targetUserId,
      JSON.parse(event.before!),
      JSON.parse(event.after!),
    ],
    [w.admin.id, 'admin:root@example.test', '203.0.113.9', w.bob.id, { role: 'developer' }, { role: 'support' }],
  );
  await assert.rejects(
    changeUserRole(w.db, w.admin, w.bob.id, 'wizard'),
    (e: Error) => e instanceof UserStoreError && /Unknown role "wizard"/.test(e.message),
  );
  await assert.rejects(changeUserRole(w.db, w.admin, w.bob.id, 'support'), /already has the support role/);

  const listed = await listUsers(w.db, w.admin, { email: 'BOB' });
  assert.deepEqual(
    listed.users.map((u) => [u.email, u.role, u.keys]),
    [['bob@example.test', 'support', 2]],
  );
});

test('the last admin cannot be demoted (not even by themselves); with a second admin it works', async (t) => {
  const w = await world(t);
  await assert.rejects(
    changeUserRole(w.db, w.admin, w.admin.id, 'support'),
    /root@example\.test is the only admin; make another user admin first/,
  );
  assert.equal(await w.db.auditEvent.count({ where: { action: 'user.role' } }), 0);
  await changeUserRole(w.db, w.admin, w.ada.id, 'admin');
  await changeUserRole(w.db, w.admin, w.admin.id, 'developer');
  assert.equal((await w.db.user.findUniqueOrThrow({ where: { id: w.admin.id } })).role, 'developer');
});
