/**
 * A key name over the limit is refused, saying how long it is and how much to cut, the same through
 * every door that names keys (the key store the CLI calls, the portal's create and rename); nothing is
 * ever stored shortened.
 */
process.env.KEY_HASH_SECRET = 'n'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { PortalInputError } from '../portal/access.ts';
import { createMyKey, renameMyKey } from '../portal/keys.ts';
import { KeyStoreError } from './errors.ts';
import { KEY_NAME_MAX, KEY_NAME_MISSING, keyNameProblem } from './name.ts';
import { issueKey, renameKey } from './store.ts';

const TOO_LONG_137 = 'The key name has 137 characters; the limit is 100. Shorten it by 37 characters.';

test('a name of 1 to 100 characters (as people count them, once trimmed) is taken; longer ones say by how much', () => {
  assert.equal(keyNameProblem('x'.repeat(KEY_NAME_MAX)), null);
  assert.equal(keyNameProblem(`  ${'x'.repeat(KEY_NAME_MAX)}  `), null, 'surrounding spaces are not part of the name');
  assert.equal(keyNameProblem('🧪'.repeat(KEY_NAME_MAX)), null, 'an emoji is one character, not two');
  assert.equal(keyNameProblem('x'.repeat(137)), TOO_LONG_137);
  assert.equal(
    keyNameProblem('x'.repeat(101)),
    'The key name has 101 characters; the limit is 100. Shorten it by 1 character.',
  );
  assert.equal(
    keyNameProblem('x'.repeat(12_345)),
    'The key name has 12,345 characters; the limit is 100. Shorten it by 12,245 characters.',
  );
  for (const missing of ['', '   ', undefined, null, 42]) assert.equal(keyNameProblem(missing), KEY_NAME_MISSING);
});

test('every door that names a key refuses 137 characters with the same message, and stores nothing cut', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  const long = 'x'.repeat(137);
  const fromStore = (error: unknown) => error instanceof KeyStoreError && error.message === TOO_LONG_137;
  const fromPortal = (error: unknown) =>
    error instanceof PortalInputError && error.message === TOO_LONG_137 && error.field === 'name';

  // The CLI's `key create --name` and every other caller of the store.
  await assert.rejects(issueKey(db, { ownerId: ada.id, name: long, tierId: 'free' }, actor(ada)), fromStore);
  await assert.rejects(createMyKey(db, ada, { name: long, expiryDays: 30 }, actor(ada)), fromPortal);
  assert.equal(await db.apiKey.count(), 0, 'no key was made under a shortened name');

  const { key } = await createMyKey(db, ada, { name: 'laptop', expiryDays: 30 }, actor(ada));
  await assert.rejects(renameKey(db, key.id, long, actor(ada)), fromStore);
  await assert.rejects(renameMyKey(db, ada, key.id, long, actor(ada)), fromPortal);
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).name, 'laptop');
});
