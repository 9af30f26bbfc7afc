/**
 * The cap on keys an account may have created in any 24 hours (KEYS_CREATED_PER_DAY, here 3): new keys
 * and reissues both count, whether or not the keys still work, so a create-and-disable loop stops at the
 * cap; the refusal says how many and from when the next may be created. The portal, the messaging apps'
 * "new key" (in the follower's language) and reissues all meet it; support staff and the operator's CLI
 * are not held to it, though what they create counts for the owner.
 */
// test-isolation: process (KEYS_CREATED_PER_DAY is read once per process, by lib/config.ts)
process.env.KEYS_CREATED_PER_DAY = '3';
process.env.KEY_HASH_SECRET = 'c'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { createBindCode, redeemBindCode } from '../channels/bindings.ts';
import { converse } from '../channels/conversation.ts';
import { WECHAT_REPLY_LIMIT } from '../channels/types.ts';
import { createMyKey, disableMyKey, reissueMyKey } from '../portal/keys.ts';
import { staffReissueKey } from '../portal/support.ts';
import { DailyKeyCapError, issueKey, reissueKey } from './store.ts';

const DAY_MS = 86_400_000;

/** The refusal's words for a cap of 3, the oldest counted key created at `firstAt`. */
function capMessage(firstAt: Date): RegExp {
  const next = new Date(Math.ceil((firstAt.getTime() + DAY_MS) / 60_000) * 60_000);
  const at = `${next.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return new RegExp(
    `This account has created 3 keys in the last 24 hours \\(reissues count too\\), the most one account may create in a day\\. The next can be created from ${at}\\.$`,
  );
}

test('a create-and-disable loop in the portal stops at the cap, though no key is active', async (t) => {
  const { db, ada, bob, actor } = await scratchPortal(t);
  const created = [];
  for (let i = 0; i < 3; i++) {
    const { key } = await createMyKey(db, ada, { name: `loop ${i}`, expiryDays: null }, actor(ada));
    await disableMyKey(db, ada, key.id, undefined, actor(ada));
    created.push(key);
  }
  const refusal = await createMyKey(db, ada, { name: 'one more', expiryDays: null }, actor(ada)).catch((e) => e);
  assert.ok(refusal instanceof DailyKeyCapError, String(refusal));
  assert.match(refusal.message, capMessage(created[0].createdAt));
  assert.equal(await db.apiKey.count({ where: { ownerId: ada.id } }), 3, 'nothing written');
  // Another account is not affected.
  await createMyKey(db, bob, { name: 'bob', expiryDays: null }, actor(bob));
});

test('reissues count, in the portal and in the store; staff and the CLI are not held to the cap', async (t) => {
  const { db, ada, support, actor } = await scratchPortal(t);
  const first = await createMyKey(db, ada, { name: 'ci', expiryDays: null }, actor(ada));
  const second = await reissueMyKey(db, ada, first.key.id, actor(ada));
  const third = await reissueKey(db, second.key.id, actor(ada));
  await assert.rejects(reissueMyKey(db, ada, third.key.id, actor(ada)), capMessage(first.key.createdAt));
  await assert.rejects(reissueKey(db, third.key.id, actor(ada)), DailyKeyCapError);
  await assert.rejects(issueKey(db, { ownerId: ada.id, name: 'x' }, actor(ada)), DailyKeyCapError);

  // Support can still give the owner a new secret (a leak at the cap), and the operator a new key.
  const bySupport = await staffReissueKey(db, support, third.key.id);
  await issueKey(db, { ownerId: ada.id, name: 'by the operator' }, { label: 'cli' }, { cap: 'bypass' });
  assert.equal(await db.apiKey.count({ where: { ownerId: ada.id } }), 5);
  // What they created counts for the owner, who is still at the cap.
  await assert.rejects(reissueMyKey(db, ada, bySupport.id, actor(ada)), DailyKeyCapError);
});

test('"new key" in a messaging app at the cap: the refusal in the follower\'s language, with the time', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  const follower = { channel: 'wechat' as const, id: 'oCapped' };
  const { code } = await createBindCode(db, ada.id);
  assert.equal((await redeemBindCode(db, follower, code)).kind, 'bound');
  for (let i = 0; i < 3; i++) await createMyKey(db, ada, { name: `k${i}`, expiryDays: 30 }, actor(ada));
  for (const [language, words] of [
    [
      'en',
      /^Your account has created 3 keys in the last 24 hours \(reissues count too\), the most it may create in a day\. You can create the next from \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/,
    ],
    [
      'zh',
      /^你的账户在 24 小时内已创建 3 个密钥（含重新签发），达到每天的上限。\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC 起可以再创建。$/,
    ],
  ] as const) {
    const reply = await converse({ db, language, limit: WECHAT_REPLY_LIMIT }, follower, { kind: 'new_key' });
    assert.match(reply, words, language);
  }
  assert.equal(await db.apiKey.count({ where: { ownerId: ada.id } }), 3);
});
