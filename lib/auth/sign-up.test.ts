/**
 * Sign-up racing itself: several sign-ups for one new email at the same moment (a double-clicked form,
 * or a script probing whether the race tells anything) end as one account and the same quiet answer for
 * each, on both databases. On PostgreSQL both transactions read "no such user" before either commits,
 * and the loser meets the unique index instead.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migratedScratchDb } from '../../test/support/migrated-db.ts';
import { signUp } from './sign-up.ts';

describe('simultaneous sign-ups for one new email', () => {
  for (const provider of ['sqlite', 'postgresql'] as const) {
    it(`${provider}: one account, and every sign-up answers the same (nothing)`, async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      const email = 'race@example.test';
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          signUp(db, { email, password: `a long race password ${i}` }, { label: 'self-signup', ip: '203.0.113.7' }),
        ),
      );
      assert.deepEqual(
        outcomes.map((o) => o.status),
        Array(6).fill('fulfilled'),
        JSON.stringify(outcomes.filter((o) => o.status === 'rejected')),
      );
      assert.equal(await db.user.count({ where: { email } }), 1);
      assert.equal(await db.auditEvent.count({ where: { action: 'user.signup-existing' } }), 5);
    });
  }
});
