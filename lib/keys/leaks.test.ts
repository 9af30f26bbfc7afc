/** Leak reports on a real SQLite database: matches are disabled with an audit event; nothing else changes. */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { SYSTEM_ACTOR } from '../audit/write.ts';
import { createDb } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { ensureTiers } from '../portal/first-start.ts';
import { generateKey } from './format.ts';
import { disableLeakedSecrets, secretsInText } from './leaks.ts';
import { issueKey, reissueKey } from './store.ts';

process.env.KEY_HASH_SECRET = 'e'.repeat(64);

test('secretsInText finds distinct well-formed secrets in pasted text and drops bad checksums', () => {
  const a = generateKey();
  const b = generateKey();
  const broken = a.slice(0, -1) + (a.endsWith('0') ? '1' : '0');
  assert.deepEqual(secretsInText(`first ${a}\nagain "${a}", then ${b}; typo ${broken}`).sort(), [a, b].sort());
});

/** A fresh migrated SQLite database with the tiers and one developer, closed when the test ends. */
async function scratchOwner(t: TestContext) {
  const url = scratchSqliteUrl(t);
  await migrateDatabase(url);
  const db = createDb(url);
  t.after(() => db.$disconnect());
  await ensureTiers(db);
  const owner = await db.user.create({ data: { email: 'ada@example.test' } });
  return { db, owner };
}

test('a leak report disables matching active keys, audits every match, and ignores unknown secrets', async (t) => {
  const { db, owner } = await scratchOwner(t);
  const active = await issueKey(db, { ownerId: owner.id, name: 'ci' }, SYSTEM_ACTOR);
  const untouched = await issueKey(db, { ownerId: owner.id, name: 'prod' }, SYSTEM_ACTOR);
  const actor = { label: 'leak-report', ip: '198.51.100.7' };

  const first = await disableLeakedSecrets(
    db,
    [active.secret, active.secret, generateKey(), 'cf_short'],
    actor,
    'public report',
  );
  assert.deepEqual(first, {
    examined: 2,
    matched: 1,
    disabled: 1,
    alreadyDisabled: 0,
    keyIds: [active.key.id],
    disabledKeyIds: [active.key.id],
  });
  const disabled = await db.apiKey.findUniqueOrThrow({ where: { id: active.key.id } });
  assert.ok(disabled.disabledAt);
  assert.equal(disabled.disabledReason, 'leaked: public report');
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: untouched.key.id } })).disabledAt, null);

  const again = await disableLeakedSecrets(db, [active.secret], actor, 'second sighting');
  assert.deepEqual([again.alreadyDisabled, again.keyIds, again.disabledKeyIds], [1, [active.key.id], []]);
  const events = await db.auditEvent.findMany({ where: { keyId: active.key.id }, orderBy: { createdAt: 'asc' } });
  assert.deepEqual(
    events.map((e) => e.action),
    ['key.issue', 'key.leak_disable', 'key.leak_report'],
  );
  assert.equal(events[1].ip, '198.51.100.7');
});

test('a leak report of a reissued key still in its grace period stops the old secret at once', async (t) => {
  const { db, owner } = await scratchOwner(t);
  const old = await issueKey(db, { ownerId: owner.id, name: 'agent' }, SYSTEM_ACTOR);
  const { replaced } = await reissueKey(db, old.key.id, SYSTEM_ACTOR, { grace: '7d' });
  assert.ok(replaced.disabledAt!.getTime() > Date.now(), 'in its grace period');

  const before = Date.now();
  const outcome = await disableLeakedSecrets(db, [old.secret], { label: 'leak-report' }, 'public report');
  assert.deepEqual([outcome.disabled, outcome.alreadyDisabled], [1, 0]);
  const row = await db.apiKey.findUniqueOrThrow({ where: { id: old.key.id } });
  assert.ok(row.disabledAt!.getTime() >= before && row.disabledAt!.getTime() <= Date.now(), 'stopped now');
  assert.equal(row.disabledReason, 'leaked: public report');
  const events = await db.auditEvent.findMany({ where: { keyId: old.key.id }, orderBy: { createdAt: 'asc' } });
  assert.deepEqual(
    events.map((e) => e.action),
    ['key.issue', 'key.reissue', 'key.leak_disable'],
  );
});

test('a leak report of a key already off still stops the secret it replaced, left in its grace period by an older stop', async (t) => {
  const { db, owner } = await scratchOwner(t);
  const old = await issueKey(db, { ownerId: owner.id, name: 'agent' }, SYSTEM_ACTOR);
  const next = await reissueKey(db, old.key.id, SYSTEM_ACTOR, { grace: '7d' });
  // The live key turned off the way it was before a stop reached back along the chain: alone.
  await db.apiKey.update({
    where: { id: next.key.id },
    data: { disabledAt: new Date(), disabledReason: 'lost laptop', stopKind: 'owner' },
  });

  const outcome = await disableLeakedSecrets(db, [next.secret], { label: 'leak-report' }, 'public report');
  assert.deepEqual([outcome.disabled, outcome.alreadyDisabled], [0, 1]);
  const oldRow = await db.apiKey.findUniqueOrThrow({ where: { id: old.key.id } });
  assert.ok(oldRow.disabledAt!.getTime() <= Date.now(), 'the old secret stopped');
  assert.equal(oldRow.stopKind, 'leaked');
  const actions = async (keyId: string) =>
    (await db.auditEvent.findMany({ where: { keyId }, orderBy: { createdAt: 'asc' } })).map((e) => e.action);
  assert.deepEqual(await actions(next.key.id), ['key.issue', 'key.leak_report']);
  assert.deepEqual(await actions(old.key.id), ['key.issue', 'key.reissue', 'key.grace_end']);
});
