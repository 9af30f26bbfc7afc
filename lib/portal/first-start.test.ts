/**
 * The first admin's one-time password is printed to the console, so the account is made with the duty to
 * replace it, which the session carries to every page and action; choosing a new password in the portal,
 * or the operator setting one, ends it. Accounts made any other way have no such duty.
 */
process.env.KEY_HASH_SECRET = 'a'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migratedScratchDb } from '../../test/support/migrated-db.ts';
import { CLI_ACTOR } from '../audit/write.ts';
import { sessionUser } from '../auth/session-version.ts';
import { createUser, setPassword } from '../auth/users.ts';
import { config } from '../config.ts';
import { actorOf } from './access.ts';
import { changeMyPassword } from './account.ts';
import { seedDatabase } from './first-start.ts';

test('the first admin must replace the printed password; a new one, from the portal or the CLI, ends that', async (t) => {
  const db = (await migratedScratchDb(t, 'sqlite'))!;
  const seeded = await seedDatabase(db);
  assert.ok(seeded.admin, 'the first start made an admin');
  assert.match(
    seeded.admin.password,
    /^[A-Za-z0-9]{16}$/,
    'letters and digits only: nothing a shell or the CLI misreads',
  );
  const admin = await db.user.findUniqueOrThrow({ where: { email: config().adminEmail } });
  const session = async () => {
    const now = await db.user.findUniqueOrThrow({ where: { id: admin.id } });
    return sessionUser(db, { sub: admin.id, sv: now.sessionVersion });
  };
  assert.equal((await session())?.mustChangePassword, true);
  assert.deepEqual(await seedDatabase(db), {}, 'a later start leaves the admin alone');

  const viewer = { id: admin.id, email: admin.email, name: admin.name, role: 'admin' as const };
  const next = 'a passphrase only the admin knows';
  await changeMyPassword(db, viewer, { current: seeded.admin.password, next, confirm: next }, actorOf(viewer));
  assert.equal((await session())?.mustChangePassword, false);

  await db.user.update({ where: { id: admin.id }, data: { mustChangePassword: true } });
  await setPassword(db, admin.email, 'the operator chose this one', CLI_ACTOR);
  assert.equal((await session())?.mustChangePassword, false, "the operator's `user password` ends it too");

  const developer = await createUser(db, { email: 'dev@example.test', password: 'a long enough password' }, CLI_ACTOR);
  assert.equal(developer.mustChangePassword, false, 'sign-ups and `user create` choose their own password');
});
