/**
 * The support console's services on a real SQLite database: finding keys from what staff have at hand,
 * and every change (disable, re-enable, reissue, settings, bulk leak disable) with its audit row.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { config } from '../config.ts';
import { KeyStoreError } from '../keys/errors.ts';
import { generateKey } from '../keys/format.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { PortalInputError } from './access.ts';
import {
  bulkDisableLeaked,
  endOfUtcDay,
  searchKeys,
  staffChangeSettings,
  staffDisableKey,
  staffEnableKey,
  staffKeyDetail,
  staffReissueKey,
} from './support.ts';

const names = (search: Awaited<ReturnType<typeof searchKeys>>) => search.results.map((r) => r.name).sort();

test('search finds keys by display form (… or ...), first or last 4 characters, pasted secret, and owner email', async (t) => {
  const { db, ada, bob, support, issue } = await scratchPortal(t);
  const laptop = await issue(ada, 'laptop');
  await issue(ada, 'ci');
  await issue(bob, 'bob key');
  const { start, end } = laptop.key;

  assert.deepEqual(names(await searchKeys(db, support, `cf_${start}…${end}`)), ['laptop']);
  assert.deepEqual(names(await searchKeys(db, support, `cf_${start}...${end}`)), ['laptop']);
  assert.ok(names(await searchKeys(db, support, start)).includes('laptop'), 'first 4');
  assert.ok(names(await searchKeys(db, support, end)).includes('laptop'), 'last 4');
  assert.ok(names(await searchKeys(db, support, `cf_${start}`)).includes('laptop'), 'first 4 with the prefix');
  const bySecret = await searchKeys(db, support, `  ${laptop.secret}\n`);
  assert.deepEqual([bySecret.kind, names(bySecret)], ['secret', ['laptop']]);
  assert.deepEqual(names(await searchKeys(db, support, 'ada@example.test')), ['ci', 'laptop']);
  assert.deepEqual(names(await searchKeys(db, support, 'ADA@')), ['ci', 'laptop'], 'partial email, any case');
  assert.deepEqual(names(await searchKeys(db, support, 'example.test')), ['bob key', 'ci', 'laptop']);
  assert.deepEqual(names(await searchKeys(db, support, laptop.key.id)), ['laptop'], 'the key id');
});

test('search: no matches is an empty list; an unknown secret matches nothing; a broken secret and an empty query are explained', async (t) => {
  const { db, ada, support, issue } = await scratchPortal(t);
  const { secret } = await issue(ada);
  assert.deepEqual((await searchKeys(db, support, 'nobody@nowhere.test')).results, []);
  assert.deepEqual((await searchKeys(db, support, generateKey())).results, []);
  const broken = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
  await assert.rejects(
    searchKeys(db, support, broken),
    (e: Error) =>
      e instanceof PortalInputError && /not a whole, valid key/.test(e.message) && !e.message.includes(broken),
  );
  await assert.rejects(searchKeys(db, support, '   '), PortalInputError);
});

test('search results carry owner, tier, status and today’s calls against the effective quota', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const { key } = await issue(ada, 'busy');
  await db.apiKey.update({ where: { id: key.id }, data: { dailyQuota: 50 } });
  const { day } = quotaDayCalculator(config().quotaTimeZone)(Date.now());
  await db.dailyUsage.createMany({
    data: [
      { keyId: key.id, day, tool: 'a', successes: 7, failures: 2, rateLimited: 4 },
      { keyId: key.id, day, tool: 'b', successes: 1, failures: 0, rateLimited: 0 },
      { keyId: key.id, day: '2001-01-01', tool: 'a', successes: 99, failures: 0, rateLimited: 0 },
    ],
  });
  await staffDisableKey(db, support, key.id, 'owner asked', actor(support));
  const [result] = (await searchKeys(db, support, 'ada@')).results;
  assert.deepEqual(
    { ...result, id: undefined, display: undefined },
    {
      id: undefined,
      display: undefined,
      name: 'busy',
      owner: 'ada@example.test',
      tier: 'free',
      status: 'disabled',
      worksUntil: null,
      usedToday: 10,
      dailyQuota: 50,
    },
  );
});

test('disable needs a reason and writes key.disable with before/after, reason, actor and IP; re-enable writes key.enable', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const { key } = await issue(ada);
  await assert.rejects(staffDisableKey(db, support, key.id, '  ', actor(support)), /Give a reason for disabling/);

  await staffDisableKey(db, support, key.id, ' leaked in a public gist ', actor(support));
  await assert.rejects(staffDisableKey(db, support, key.id, 'again', actor(support)), KeyStoreError);
  await assert.rejects(staffEnableKey(db, support, key.id, '', actor(support)), /Give a reason for re-enabling/);
  await staffEnableKey(db, support, key.id, 'false alarm: the gist held a revoked key', actor(support));
  await assert.rejects(staffEnableKey(db, support, key.id, 'again', actor(support)), /not disabled/);

  const events = await db.auditEvent.findMany({ where: { keyId: key.id }, orderBy: { createdAt: 'asc' } });
  assert.deepEqual(
    events.map((e) => e.action),
    ['key.issue', 'key.disable', 'key.enable'],
  );
  const [, disabled, enabled] = events;
  assert.deepEqual(
    [disabled.actorId, disabled.ip, disabled.reason, disabled.targetUserId],
    [support.id, '203.0.113.9', 'leaked in a public gist', ada.id],
  );
  assert.equal(JSON.parse(disabled.before!).disabledAt, null);
  assert.equal(JSON.parse(disabled.after!).disabledReason, 'leaked in a public gist');
  assert.equal(JSON.parse(enabled.before!).disabledReason, 'leaked in a public gist');
  assert.deepEqual(
    [JSON.parse(enabled.after!).disabledAt, enabled.reason],
    [null, 'false alarm: the gist held a revoked key'],
  );
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).disabledAt, null);
});

test('reissue on the owner’s behalf: a new secret once, the old key off and not re-enableable', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const old = await issue(ada, 'prod', 'pro');
  const fresh = await staffReissueKey(db, support, old.key.id, actor(support));
  assert.match(fresh.secret, /^cf_[0-9A-Za-z]{38}$/);
  const row = await db.apiKey.findUniqueOrThrow({ where: { id: fresh.id } });
  assert.deepEqual([row.ownerId, row.name, row.tierId], [ada.id, 'prod', 'pro']);
  const oldRow = await db.apiKey.findUniqueOrThrow({ where: { id: old.key.id } });
  assert.deepEqual([Boolean(oldRow.disabledAt), oldRow.replacedById], [true, fresh.id]);
  await assert.rejects(staffEnableKey(db, support, old.key.id, 'oops', actor(support)), /reissued as key/);
  const reissueEvent = await db.auditEvent.findFirstOrThrow({ where: { keyId: old.key.id, action: 'key.reissue' } });
  assert.deepEqual([reissueEvent.actorId, reissueEvent.ip], [support.id, '203.0.113.9']);
  const detail = await staffKeyDetail(db, support, fresh.id);
  assert.equal(detail.replaces?.id, old.key.id);
});

test('reissue on the owner’s behalf with a grace period: the old secret works until then, audited; a bad choice is refused', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const old = await issue(ada, 'fleet');
  await assert.rejects(
    staffReissueKey(db, support, old.key.id, actor(support), '2h'),
    (error: unknown) =>
      error instanceof PortalInputError && /now, in 1 hour, in 24 hours or in 7 days/.test(error.message),
  );
  const before = Date.now();
  const fresh = await staffReissueKey(db, support, old.key.id, actor(support), '7d');
  const stopsAt = Date.parse(fresh.oldWorksUntil!);
  assert.ok(stopsAt >= before + 7 * 86_400_000 && stopsAt <= Date.now() + 7 * 86_400_000);
  const detail = await staffKeyDetail(db, support, old.key.id);
  assert.deepEqual([detail.report.status, detail.report.worksUntil], ['replaced', fresh.oldWorksUntil]);
  const event = detail.audit.events.find((e) => e.action === 'key.reissue')!;
  assert.deepEqual(
    event.changes.filter((c) => c.field === 'graceSeconds' || c.field === 'disabledAt'),
    [
      { field: 'disabledAt', before: null, after: fresh.oldWorksUntil },
      { field: 'graceSeconds', before: undefined, after: 604_800 },
    ],
  );
  // Disabling it during the grace period stops it now.
  await staffDisableKey(db, support, old.key.id, 'found in a public log', actor(support));
  const stopped = (await staffKeyDetail(db, support, old.key.id)).report;
  assert.deepEqual([stopped.status, stopped.worksUntil], ['replaced', null]);
});

test('settings: blank limits mean the tier default, blank expiry never; only changed fields are audited', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const { key } = await issue(ada);
  const change = (form: Partial<Parameters<typeof staffChangeSettings>[3]>) =>
    staffChangeSettings(
      db,
      support,
      key.id,
      { tierId: 'free', dailyQuota: '', ratePerSecond: '', expiresOn: '', ...form },
      actor(support),
    );

  assert.deepEqual(await change({}), { changed: [] }, 'nothing differs: nothing written');
  assert.deepEqual(
    await change({ tierId: 'pro', dailyQuota: '5000', expiresOn: '2099-06-30', reason: 'contract #42' }),
    { changed: ['tierId', 'dailyQuota', 'expiresAt'] },
  );
  const updated = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
  assert.deepEqual(
    [updated.tierId, updated.dailyQuota, updated.ratePerSecond, updated.expiresAt?.toISOString()],
    ['pro', 5000, null, '2099-06-30T23:59:59.999Z'],
  );
  const [event] = await db.auditEvent.findMany({ where: { keyId: key.id, action: 'key.update' } });
  assert.deepEqual(JSON.parse(event.before!), { tierId: 'free', dailyQuota: null, expiresAt: null });
  assert.deepEqual(JSON.parse(event.after!), {
    tierId: 'pro',
    dailyQuota: 5000,
    expiresAt: '2099-06-30T23:59:59.999Z',
  });
  assert.deepEqual([event.reason, event.actorId, event.ip], ['contract #42', support.id, '203.0.113.9']);

  // The same expiry day keeps the stored time; blanks return to the defaults.
  assert.deepEqual(await change({ tierId: 'pro', dailyQuota: '', expiresOn: '2099-06-30', ratePerSecond: '3' }), {
    changed: ['dailyQuota', 'ratePerSecond'],
  });
  assert.deepEqual(await change({ tierId: 'pro', ratePerSecond: '3', expiresOn: '' }), { changed: ['expiresAt'] });
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).expiresAt, null);

  await assert.rejects(change({ dailyQuota: '0' }), /daily quota must be a whole number/);
  await assert.rejects(change({ ratePerSecond: '2.5' }), /per-second limit must be a whole number/);
  await assert.rejects(change({ expiresOn: '2001-01-01' }), /in the past. To stop the key now, disable it/);
  await assert.rejects(change({ expiresOn: 'soon' }), /must be a date like/);
  await assert.rejects(
    change({ tierId: 'gold' }),
    (e: Error) => e instanceof PortalInputError && /Choose one of the tiers: free, pro\./.test(e.message),
  );
  assert.equal(await db.auditEvent.count({ where: { keyId: key.id, action: 'key.update' } }), 3);
  assert.equal(endOfUtcDay('2027-01-31').toISOString(), '2027-01-31T23:59:59.999Z');
});

test('bulk leak disable says, for each secret in the paste, whether it was disabled now, already, or matched no key', async (t) => {
  const { db, ada, bob, support, issue, actor } = await scratchPortal(t);
  const a = await issue(ada, 'a');
  const b = await issue(bob, 'b');
  const c = await issue(bob, 'c');
  await staffDisableKey(db, support, c.key.id, 'earlier', actor(support));
  const stranger = generateKey();
  const text = `config.json: "key": "${a.secret}"\nagain ${a.secret}\n${b.secret}, ${c.secret}\nstranger ${stranger}\nbroken ${a.secret.slice(0, 30)}`;

  await assert.rejects(bulkDisableLeaked(db, support, text, '  ', actor(support)), /Say where the secrets were found/);
  await assert.rejects(bulkDisableLeaked(db, support, '  ', 'gist', actor(support)), /Paste the text/);
  const outcome = await bulkDisableLeaked(db, support, text, 'https://gist.example/123', actor(support));
  const display = (secret: string) => `cf_${secret.slice(3, 7)}…${secret.slice(-4)}`;
  assert.deepEqual(outcome, {
    found: 4,
    matched: 3,
    disabled: 2,
    alreadyDisabled: 1,
    secrets: [
      { display: display(a.secret), outcome: 'disabled', key: { id: a.key.id, name: 'a', owner: 'ada@example.test' } },
      { display: display(b.secret), outcome: 'disabled', key: { id: b.key.id, name: 'b', owner: 'bob@example.test' } },
      {
        display: display(c.secret),
        outcome: 'already_disabled',
        key: { id: c.key.id, name: 'c', owner: 'bob@example.test' },
      },
      { display: display(stranger), outcome: 'not_found', key: null },
    ],
  });
  assert.ok(!JSON.stringify(outcome).includes(a.secret.slice(7, -4)), 'no secret beyond its display form');
  const event = await db.auditEvent.findFirstOrThrow({ where: { keyId: a.key.id, action: 'key.leak_disable' } });
  assert.deepEqual(
    [event.reason, event.actorId, event.ip],
    ['leaked: https://gist.example/123', support.id, '203.0.113.9'],
  );

  const again = await bulkDisableLeaked(db, support, `${b.secret} ${a.secret}`, 'the same gist', actor(support));
  assert.deepEqual(
    again.secrets.map((s) => [s.display, s.outcome]),
    [
      [display(b.secret), 'already_disabled'],
      [display(a.secret), 'already_disabled'],
    ],
    'a second paste of the same secrets: every key was off already',
  );

  const none = await bulkDisableLeaked(db, support, 'nothing to see here', 'ticket SUP-7', actor(support));
  assert.deepEqual(none, { found: 0, matched: 0, disabled: 0, alreadyDisabled: 0, secrets: [] });
});

test('the key detail for staff: report, overrides, tiers, and this key’s audit trail newest first', async (t) => {
  const { db, ada, support, issue, actor } = await scratchPortal(t);
  const { key } = await issue(ada, 'detail');
  await staffDisableKey(db, support, key.id, 'checking', actor(support));
  const detail = await staffKeyDetail(db, support, key.id);
  assert.deepEqual(
    [detail.report.owner, detail.report.status, detail.overrides.dailyQuota],
    ['ada@example.test', 'disabled', null],
  );
  assert.deepEqual(
    detail.tiers.map((t) => t.id),
    ['free', 'pro'],
  );
  assert.deepEqual(
    detail.audit.events.map((e) => e.action),
    ['key.disable', 'key.issue'],
  );
});
