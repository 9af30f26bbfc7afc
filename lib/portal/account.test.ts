/** Changing one's own password: the current one is checked, the new one typed twice, the change audited. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCRATCH_IP, scratchPortal } from '../../test/support/portal-db.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { UserStoreError } from '../auth/users.ts';
import { PortalInputError } from './access.ts';
import { changeMyPassword, myAccount } from './account.ts';

process.env.KEY_HASH_SECRET = 'a'.repeat(64);

test('a password change needs the current password and the new one twice, and is audited without either', async (t) => {
  const { db, ada, bob, actor } = await scratchPortal(t);
  await db.user.update({ where: { id: ada.id }, data: { passwordHash: await hashPassword('the old password') } });
  await db.user.update({ where: { id: bob.id }, data: { passwordHash: await hashPassword('bobs own password') } });
  const change = (current: string, next: string, confirm = next) =>
    changeMyPassword(db, ada, { current, next, confirm }, actor(ada));

  await assert.rejects(
    change('wrong password', 'a brand new password'),
    (e: Error) => e instanceof UserStoreError && /current password is wrong/.test(e.message),
  );
  await assert.rejects(change('the old password', 'a brand new password', 'something else entirely'), PortalInputError);
  await assert.rejects(change('the old password', 'short'), /at least 10 characters/);
  await assert.rejects(change('the old password', 'the old password'), /same as the current one/);
  await assert.rejects(change('', 'a brand new password'), PortalInputError);
  assert.equal(await db.auditEvent.count({ where: { action: 'user.password' } }), 0, 'refusals change nothing');

  await change('the old password', 'a brand new password');
  const stored = (await db.user.findUniqueOrThrow({ where: { id: ada.id } })).passwordHash!;
  assert.ok(await verifyPassword('a brand new password', stored));
  assert.ok(!(await verifyPassword('the old password', stored)));
  assert.ok(
    await verifyPassword(
      'bobs own password',
      (await db.user.findUniqueOrThrow({ where: { id: bob.id } })).passwordHash!,
    ),
    'only the viewer’s own password changes',
  );
  const [event] = await db.auditEvent.findMany({ where: { action: 'user.password' } });
  assert.equal(event.targetUserId, ada.id);
  assert.equal(event.ip, SCRATCH_IP);
  assert.equal(event.before, null);
  assert.equal(event.after, null);
});

test('an account without a password (GitHub sign-in) is told so; myAccount reports it', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  assert.equal((await myAccount(db, ada)).hasPassword, false);
  await assert.rejects(
    changeMyPassword(
      db,
      ada,
      { current: 'anything at all', next: 'a brand new password', confirm: 'a brand new password' },
      actor(ada),
    ),
    /signs in with GitHub/,
  );
});
