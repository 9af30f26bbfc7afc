/**
 * A key's further secrets (KeySecret: OAuth access tokens): each is the key on /mcp until its own
 * expiry, a stopped key stops all of them, and support's tools find the key from one.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { CLI_ACTOR } from '../audit/write.ts';
import { createDb, type Db } from '../db/client.ts';
import type { HotPathStore } from '../db/hot-path.ts';
import { openPostgresHotPath } from '../db/hot-path-postgres.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { ensureTiers } from '../portal/first-start.ts';
import { findKey } from './find.ts';
import { generateKey } from './format.ts';
import { hashKey } from './hash.ts';
import { disableLeakedSecrets } from './leaks.ts';
import { disableKey, issueKey } from './store.ts';
import { createKeyVerifier } from './verify.ts';

type Provider = 'sqlite' | 'postgresql';

/**
 * The verifier's answer once a key change has reached it: at once on SQLite (the hot path reads the
 * file's data_version), within milliseconds on PostgreSQL (a NOTIFY the hot path's listener receives).
 */
async function onceChanged(verify: () => ReturnType<ReturnType<typeof createKeyVerifier>>) {
  for (let waited = 0; ; waited += 10) {
    const answer = await verify();
    if (!answer.ok || waited >= 2_000) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function fixture(t: TestContext, provider: Provider) {
  let db: Db | undefined;
  let store: HotPathStore | undefined;
  t.after(async () => {
    await store?.close();
    await db?.$disconnect();
  });
  const url = provider === 'sqlite' ? scratchSqliteUrl(t) : await scratchPostgresUrl(t);
  if (!url) return undefined;
  await migrateDatabase(url);
  db = createDb(url);
  await ensureTiers(db);
  const owner = await db.user.create({ data: { email: 'ada@example.test' } });
  store = provider === 'sqlite' ? openSqliteHotPath(openSqliteFile(url)) : openPostgresHotPath(url);
  const { key, secret } = await issueKey(db, { ownerId: owner.id, name: 'agent', tierId: 'pro' }, CLI_ACTOR);
  /** A further secret of the key, valid until `expiresAt` (epoch ms). */
  const addSecret = async (expiresAt: number) => {
    const token = generateKey();
    await db!.keySecret.create({ data: { hash: hashKey(token), keyId: key.id, expiresAt: new Date(expiresAt) } });
    return token;
  };
  return { db, verifyKey: createKeyVerifier(store), key, secret, addSecret };
}

for (const provider of ['sqlite', 'postgresql'] as const) {
  describe(`a key's further secrets (${provider})`, () => {
    it('each is the key, with the key’s limits, until its own expiry; the key’s own secret is unaffected', async (t) => {
      const f = await fixture(t, provider);
      if (!f) return;
      const expiresAt = Date.now() + 3_600_000;
      const token = await f.addSecret(expiresAt);
      const before = await f.verifyKey(token, expiresAt - 1);
      assert.ok(before.ok, 'works before its expiry');
      assert.equal(before.key.id, f.key.id);
      assert.equal(before.key.secretExpiresAt, expiresAt);
      assert.equal(before.key.dailyQuota, 100_000, 'the pro tier’s quota');
      const own = await f.verifyKey(f.secret, expiresAt + 1);
      assert.ok(own.ok && own.key.secretExpiresAt === null, 'the key’s own secret has no secret expiry');

      const after = await f.verifyKey(token, expiresAt);
      assert.ok(!after.ok && after.reason === 'expired', 'refused from its expiry, from the cached row');
      assert.match(
        after.message,
        /^Access token expired on \S+Z\. Your MCP client gets a new one with its refresh token/,
      );
      const unknown = await f.verifyKey(generateKey(), Date.now());
      assert.ok(!unknown.ok && unknown.reason === 'unknown', 'a secret nobody holds is unknown');
    });

    it('a stopped key stops every secret it has, and says how it stopped', async (t) => {
      const f = await fixture(t, provider);
      if (!f) return;
      const token = await f.addSecret(Date.now() + 3_600_000);
      assert.ok((await f.verifyKey(token, Date.now())).ok);
      await disableKey(f.db, { keyId: f.key.id, reason: 'no longer needed', actor: CLI_ACTOR, kind: 'owner' });
      const refused = await onceChanged(() => f.verifyKey(token, Date.now()));
      assert.ok(!refused.ok && refused.reason === 'disabled');
      assert.match(refused.message, /^API key disabled by its owner on /);
      assert.doesNotMatch(refused.message, /no longer needed/, 'never the reason typed');
    });

    it('support finds the key from a pasted access token, and a leak report of one stops the key', async (t) => {
      const f = await fixture(t, provider);
      if (!f) return;
      const token = await f.addSecret(Date.now() + 3_600_000);
      assert.equal((await findKey(f.db, token)).id, f.key.id);
      const outcome = await disableLeakedSecrets(f.db, [token], CLI_ACTOR, 'pasted in a public issue');
      assert.deepEqual(outcome.disabledKeyIds, [f.key.id]);
      const refused = await onceChanged(() => f.verifyKey(f.secret, Date.now()));
      assert.ok(!refused.ok && /reported leaked/.test(refused.message), 'the key’s own secret stops with it');
    });
  });
}
