/**
 * The portal's side of binding on a real SQLite database: bind codes only where a messaging app is open,
 * the viewer's followers as /account lists them, and unbinding: one's own only (anything else is a 404),
 * with its audit event; the staff audit trail reads both events with the channel and the follower.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { setEnvForTest } from '../../test/support/env.ts';
import { SCRATCH_IP, scratchPortal } from '../../test/support/portal-db.ts';
import { loadConfig } from '../config.ts';
import { PortalInputError, PortalNotFound } from '../portal/access.ts';
import { auditTrail } from '../portal/audit-trail.ts';
import { redeemBindCode } from './bindings.ts';
import { sourceLabel } from './labels.ts';
import { enabledChannels, myBindCode, myBindings, shortFollowerId, unbindMine } from './portal-binding.ts';
import { CHANNELS, type Follower } from './types.ts';

const OPEN_ID = 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o';
const WECHAT: Follower = { channel: 'wechat', id: OPEN_ID };
const TELEGRAM: Follower = { channel: 'telegram', id: '987654321' };

function openApps(t: TestContext, apps: { wechat?: boolean; telegram?: boolean }) {
  setEnvForTest(t, 'WECHAT_TOKEN', apps.wechat ? 'chemflowtoken' : undefined);
  setEnvForTest(t, 'TELEGRAM_BOT_TOKEN', apps.telegram ? '123456:telegram-token' : undefined);
  setEnvForTest(t, 'TELEGRAM_WEBHOOK_SECRET', apps.telegram ? 'webhook_secret' : undefined);
}

test('the apps open on this server are those whose token is set', (t) => {
  openApps(t, {});
  assert.deepEqual(enabledChannels(loadConfig()), []);
  openApps(t, { telegram: true });
  assert.deepEqual(enabledChannels(loadConfig()), ['telegram']);
  openApps(t, { wechat: true, telegram: true });
  assert.deepEqual(enabledChannels(loadConfig()), ['wechat', 'telegram']);
});

test('no bind code when no messaging app is open; with one, a code that works for 10 minutes and binds once', async (t) => {
  const { db, ada, bob } = await scratchPortal(t);
  await assert.rejects(
    myBindCode(db, ada, []),
    (e: Error) =>
      e instanceof PortalInputError &&
      e.message === 'The messaging apps are not set up on this server, so there is nothing to bind.',
  );
  assert.equal(await db.channelBindCode.count(), 0);

  const now = Date.parse('2026-11-27T14:00:00Z');
  const issued = await myBindCode(db, ada, ['wechat'], now);
  assert.match(issued.code, /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  assert.deepEqual([issued.expiresAt, issued.minutes], ['2026-11-27T14:10:00.000Z', 10]);

  assert.equal((await redeemBindCode(db, WECHAT, issued.code, now + 60_000)).kind, 'bound');
  assert.equal((await redeemBindCode(db, TELEGRAM, issued.code, now + 60_000)).kind, 'no_such_code', 'used up');
  const bindings = await myBindings(db, ada);
  assert.deepEqual(
    bindings.map(({ app, follower }) => [app, follower]),
    [['WeChat', 'oUpF…eS6o']],
  );
  assert.ok(bindings[0].since instanceof Date);
  assert.deepEqual(await myBindings(db, bob), []);
});

test('unbinding: only one’s own follower (anything else is a 404), once, with its audit event', async (t) => {
  const { db, ada, bob, support, actor } = await scratchPortal(t);
  for (const follower of [WECHAT, TELEGRAM])
    assert.equal((await redeemBindCode(db, follower, (await myBindCode(db, ada, CHANNELS)).code)).kind, 'bound');
  const [wechat, telegram] = await myBindings(db, ada);
  assert.deepEqual(
    [wechat.app, telegram.app, telegram.follower],
    ['WeChat', 'Telegram', '987654321'],
    'a Telegram user id is short enough to show whole',
  );

  for (const [who, id] of [
    [bob, wechat.id],
    [support, wechat.id],
    [ada, 'no-such-binding'],
    [ada, ''],
  ] as const)
    await assert.rejects(unbindMine(db, who, id, actor(who)), PortalNotFound, `${who.email} unbinding "${id}"`);
  assert.equal(await db.channelBinding.count(), 2, 'nothing was unbound');

  assert.deepEqual(await unbindMine(db, ada, wechat.id, actor(ada)), wechat);
  await assert.rejects(unbindMine(db, ada, wechat.id, actor(ada)), PortalNotFound, 'already gone');
  assert.deepEqual(
    (await myBindings(db, ada)).map((b) => b.app),
    ['Telegram'],
  );
  const unbound = await db.auditEvent.findFirstOrThrow({ where: { action: 'channel.unbind' } });
  assert.deepEqual(
    [unbound.actorLabel, unbound.ip, unbound.targetUserId, JSON.parse(unbound.before!)],
    ['developer:ada@example.test', SCRATCH_IP, ada.id, { channel: 'wechat', follower: OPEN_ID }],
  );
});

test('the staff audit trail shows a bind and an unbind with the app and the whole follower id', async (t) => {
  const { db, ada, support, actor } = await scratchPortal(t);
  await redeemBindCode(db, WECHAT, (await myBindCode(db, ada, ['wechat'])).code);
  await unbindMine(db, ada, (await myBindings(db, ada))[0].id, actor(ada));

  const events = (await auditTrail(db, support, { actor: 'ada@' })).events;
  assert.deepEqual(
    events.map((e) => [e.action, e.actor, e.targetEmail, e.changes]),
    [
      [
        'channel.unbind',
        'developer:ada@example.test',
        'ada@example.test',
        [
          { field: 'channel', before: 'wechat', after: undefined },
          { field: 'follower', before: OPEN_ID, after: undefined },
        ],
      ],
      [
        'channel.bind',
        'developer:ada@example.test via WeChat',
        'ada@example.test',
        [
          { field: 'channel', before: undefined, after: 'wechat' },
          { field: 'follower', before: undefined, after: OPEN_ID },
        ],
      ],
    ],
  );
});

test('labels: the app as people know it, "portal" for none, an unknown name as stored; long ids shortened', () => {
  assert.deepEqual(
    [sourceLabel('wechat'), sourceLabel('telegram'), sourceLabel(null), sourceLabel('line'), sourceLabel('toString')],
    ['WeChat', 'Telegram', 'portal', 'line', 'toString'],
  );
  assert.equal(shortFollowerId(OPEN_ID), 'oUpF…eS6o');
  assert.equal(shortFollowerId('123456789012'), '123456789012');
});
