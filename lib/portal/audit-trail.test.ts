/** The staff audit trail: filters by key, actor and UTC days, 50 per page newest first, readable changes. */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { writeAudit } from '../audit/write.ts';
import { disableKey } from '../keys/store.ts';
import { PortalInputError } from './access.ts';
import { AUDIT_PAGE_SIZE, auditTrail, fieldChanges, MAX_FILTER_MATCHES, withoutReason } from './audit-trail.ts';

test('filters: key by id, display form or 4 characters; actor by whole or partial email; a range of UTC days', async (t) => {
  const { db, ada, bob, support, admin, issue, actor } = await scratchPortal(t);
  const a = await issue(ada, 'a');
  const b = await issue(bob, 'b');
  await disableKey(db, { keyId: a.key.id, reason: 'leaked', actor: actor(support), kind: 'support' });
  await disableKey(db, { keyId: b.key.id, reason: 'owner asked', actor: actor(admin), kind: 'support' });
  // One event on a fixed day, to test the date range.
  await db.$transaction((tx) =>
    writeAudit(tx, actor(admin), {
      action: 'key.update',
      keyId: b.key.id,
      before: { tierId: 'free' },
      after: { tierId: 'pro' },
    }),
  );
  const dated = await db.auditEvent.findFirstOrThrow({ where: { action: 'key.update' } });
  await db.auditEvent.update({ where: { id: dated.id }, data: { createdAt: new Date('2026-03-15T23:30:00Z') } });

  const actions = async (filters: Parameters<typeof auditTrail>[2]) =>
    (await auditTrail(db, support, filters)).events.map((e) => `${e.action}:${e.keyDisplay}`);
  const aDisplay = `cf_${a.key.start}…${a.key.end}`;
  assert.deepEqual(await actions({ key: a.key.id }), [`key.disable:${aDisplay}`, `key.issue:${aDisplay}`]);
  assert.deepEqual(await actions({ key: aDisplay }), [`key.disable:${aDisplay}`, `key.issue:${aDisplay}`]);
  assert.deepEqual(await actions({ key: `cf_${a.key.start}...${a.key.end}` }), [
    `key.disable:${aDisplay}`,
    `key.issue:${aDisplay}`,
  ]);
  assert.ok((await actions({ key: a.key.end })).includes(`key.disable:${aDisplay}`), 'last 4 characters');
  assert.deepEqual(await actions({ key: 'no-such-key' }), []);

  const byGrace = (await auditTrail(db, support, { actor: 'GRACE@' })).events;
  assert.deepEqual(
    byGrace.map((e) => [e.action, e.actor, e.reason, e.ip, e.targetEmail]),
    [['key.disable', 'support:grace@example.test', 'leaked', '203.0.113.9', 'ada@example.test']],
  );
  assert.deepEqual(
    (await auditTrail(db, support, { actor: 'root@example.test' })).events.map((e) => e.action),
    ['key.disable', 'key.update'],
  );

  assert.deepEqual(await actions({ from: '2026-03-15', to: '2026-03-15' }), [
    `key.update:cf_${b.key.start}…${b.key.end}`,
  ]);
  assert.deepEqual(await actions({ from: '2026-03-16', to: '2026-03-20' }), []);
  assert.deepEqual(await actions({ to: '2026-03-14' }), []);
});

test('a day filter not written YYYY-MM-DD, or not on the calendar, is refused at its field saying which and why', async (t) => {
  const { db, support } = await scratchPortal(t);
  const refusal = async (filters: Parameters<typeof auditTrail>[2]) => {
    try {
      await auditTrail(db, support, filters);
    } catch (error) {
      if (error instanceof PortalInputError) return [error.field, error.message];
    }
    return null;
  };
  // What a browser's date input or a hand-typed address may send in other locales' orders.
  for (const [field, value] of [
    ['from', '03/15/2026'],
    ['from', '15/03/2026'],
    ['to', '15.03.2026'],
    ['to', '2026-3-15'],
    ['from', '2026/03/15'],
    ['to', '20260315'],
    ['from', '2026-03-15T00:00'],
    ['to', 'yesterday'],
  ] as const) {
    assert.deepEqual(
      await refusal({ [field]: value }),
      [
        field,
        `The "${field}" day "${value}" is not written YYYY-MM-DD: write the UTC day as year-month-day, e.g. 2026-11-26.`,
      ],
      value,
    );
  }
  for (const [field, value] of [
    ['from', '2026-02-30'],
    ['to', '2026-13-01'],
    ['from', '2025-02-29'],
  ] as const) {
    assert.deepEqual(await refusal({ [field]: value }), [
      field,
      `The "${field}" day "${value}" is not a day of the calendar; check the month and day.`,
    ]);
  }
  assert.deepEqual(await refusal({ from: '2026-03-16', to: '2026-03-15' }), [
    'from',
    'The "from" day 2026-03-16 is after the "to" day 2026-03-15; swap them.',
  ]);
  assert.equal(await refusal({ from: '2028-02-29', to: ' 2028-03-01 ' }), null, 'a leap day, and spaces around a day');
});

test('a disable shows its reason once: the change that only repeats the reason is left out, other changes stay', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const { key } = await issue(ada, 'agent');
  await disableKey(db, { keyId: key.id, reason: 'leaked in a public gist', actor: actor(support), kind: 'support' });
  const [disabled] = (await auditTrail(db, support, { key: key.id })).events;
  assert.equal(disabled.reason, 'leaked in a public gist');
  assert.deepEqual(
    disabled.changes.map((c) => c.field),
    ['disabledAt', 'stopKind'],
    'no "disabled reason" row repeating the Reason column',
  );

  assert.deepEqual(
    withoutReason(
      [
        { field: 'disabledReason', before: 'reissued', after: 'moved' },
        { field: 'decisionNote', before: undefined, after: 'moved' },
        { field: 'tierId', before: 'free', after: 'pro' },
      ],
      'moved',
    ),
    [
      { field: 'disabledReason', before: 'reissued', after: 'moved' },
      { field: 'tierId', before: 'free', after: 'pro' },
    ],
    'a change from an earlier value is kept; one that only sets the reason goes',
  );
  assert.deepEqual(withoutReason([{ field: 'disabledReason', before: null, after: 'x' }], null).length, 1);
});

test('50 events a page, newest first; an out-of-range page shows the last one', async (t) => {
  const { db, ada, support, actor } = await scratchPortal(t);
  const base = Date.parse('2026-05-01T00:00:00Z');
  await db.auditEvent.createMany({
    data: Array.from({ length: 120 }, (_, i) => ({
      actorLabel: actor(ada).label,
      action: 'user.create',
      targetUserId: ada.id,
      reason: `#${i}`,
      createdAt: new Date(base + i * 1000),
    })),
  });
  const first = await auditTrail(db, support, {});
  const total = await db.auditEvent.count();
  assert.deepEqual(
    [first.page, first.pages, first.total, first.events.length],
    [1, Math.ceil(total / AUDIT_PAGE_SIZE), total, 50],
  );
  assert.equal(first.events.find((e) => e.reason?.startsWith('#'))?.reason, '#119');
  const times = first.events.map((e) => e.createdAt.getTime());
  assert.deepEqual(
    times,
    [...times].sort((x, y) => y - x),
  );
  const last = await auditTrail(db, support, { page: 99 });
  assert.equal(last.page, first.pages);
  assert.equal(last.events.length, total - (first.pages - 1) * 50);
});

test('fieldChanges lists only fields that differ, with creations as after-only', () => {
  assert.deepEqual(
    fieldChanges(
      JSON.stringify({ tierId: 'free', name: 'x', dailyQuota: null }),
      JSON.stringify({ tierId: 'pro', name: 'x', dailyQuota: 5 }),
    ),
    [
      { field: 'tierId', before: 'free', after: 'pro' },
      { field: 'dailyQuota', before: null, after: 5 },
    ],
  );
  assert.deepEqual(fieldChanges(null, JSON.stringify({ role: 'admin' })), [
    { field: 'role', before: undefined, after: 'admin' },
  ]);
  assert.deepEqual(fieldChanges('not json', null), []);
});

test('an actor filter that matches too many people is refused with what to do, not run as a huge IN list', async (t) => {
  const { db, support } = await scratchPortal(t);
  await db.user.createMany({
    data: Array.from({ length: MAX_FILTER_MATCHES + 1 }, (_, i) => ({ email: `many${i}@crowd.example` })),
  });
  await assert.rejects(
    auditTrail(db, support, { actor: 'crowd' }),
    (e: Error) => e instanceof PortalInputError && /type more of the actor's email/.test(e.message),
  );
  assert.deepEqual((await auditTrail(db, support, { actor: 'many7@crowd' })).events, []);
});
