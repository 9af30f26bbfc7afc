/**
 * What must hold when a platform delivers the same thing at once to several instances, on both databases:
 * a delivery is acted on once and every repeat gets its reply (never a secret), a failed answer can be
 * retried, one bind code binds one follower, and a double-tapped "new key" makes one account.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migratedScratchDb } from '../../test/support/migrated-db.ts';
import { createBindCode, createFollowerAccount, redeemBindCode } from './bindings.ts';
import { answerOnce } from './deliveries.ts';

const SECRET = `cf_${'A'.repeat(38)}`;

for (const provider of ['sqlite', 'postgresql'] as const) {
  describe(`${provider}: deliveries, codes and accounts under simultaneous requests`, () => {
    it('one delivery five times at once: acted on once, and a repeat gets the reply with its secret cut', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      let produced = 0;
      const produce = async () => {
        produced += 1;
        return `New key: ${SECRET}`;
      };
      const answers = await Promise.all(Array.from({ length: 5 }, () => answerOnce(db, 'wechat', 'msg:1', produce)));
      assert.equal(produced, 1);
      assert.equal(answers.filter((a) => !a.repeated).length, 1);
      assert.equal(answers.find((a) => !a.repeated)?.reply, `New key: ${SECRET}`, 'the first reply carries the secret');
      const later = await answerOnce(db, 'wechat', 'msg:1', produce);
      assert.deepEqual(later, { reply: 'New key: cf_AAAA…[redacted]', repeated: true });
      const stored = await db.channelDelivery.findMany();
      assert.ok(
        stored.every((row) => !row.reply?.includes(SECRET)),
        'no secret is kept',
      );
      assert.equal((await answerOnce(db, 'telegram', 'msg:1', produce)).repeated, false, 'ids are per channel');
    });

    it('an answer that failed releases its claim, so the platform’s retry is answered', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      await assert.rejects(
        answerOnce(db, 'telegram', 'update:9', async () => {
          throw new Error('platform unreachable');
        }),
        /platform unreachable/,
      );
      assert.deepEqual(await answerOnce(db, 'telegram', 'update:9', async () => 'hello'), {
        reply: 'hello',
        repeated: false,
      });
    });

    it('one bind code sent by three followers at once binds exactly one of them', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      const user = await db.user.create({ data: { email: 'ada@example.test' } });
      const { code } = await createBindCode(db, user.id);
      const outcomes = await Promise.all(
        ['o-1', 'o-2', 'o-3'].map((id) => redeemBindCode(db, { channel: 'wechat', id }, code)),
      );
      assert.deepEqual(outcomes.map((o) => o.kind).sort(), ['bound', 'no_such_code', 'no_such_code']);
      assert.equal(await db.channelBinding.count(), 1);
      assert.equal(await db.auditEvent.count({ where: { action: 'channel.bind' } }), 1);
    });

    it('a double-tapped "new key" makes one account for the follower', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      const follower = { channel: 'telegram', id: '4242' } as const;
      const made = await Promise.all([createFollowerAccount(db, follower), createFollowerAccount(db, follower)]);
      assert.equal(made.filter(Boolean).length, 1);
      assert.equal(await db.user.count(), 1);
      assert.equal(await db.channelBinding.count(), 1);
    });
  });
}
