/** Leak reports on a real SQLite database: matches are disabled with an audit event; nothing else changes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchSqliteUrl } from '../../test/support/test-databases.ts';
import { SYSTEM_ACTOR } from '../audit/write.ts';
import { createDb } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { ensureTiers } from '../portal/first-start.ts';
import { generateKey } from './format.ts';
import { disableLeakedSecrets, secretsInText } from './leaks.ts';
import { issueKey } from './store.ts';

process.env.KEY_HASH_SECRET = 'e'.repeat(64);

test('secretsInText finds distinct well-formed secrets in pasted text and drops bad checksums', () => {
  const a = generateKey();
  const b = generateKey();
  const broken = a.slice(0, -1) + (a.endsWith('0') ? '1' : '0');
  assert.deepEqual(secretsInText(`first ${a}\nagain "${a}", then ${b}; typo ${broken}`).sort(), [a, b].sort());
});

test('a leak report disables matching active keys, audits every match, and ignores unknown secrets', async (t) => {
  const url = scratchSqliteUrl(t);
  await migrateDatabase(url);
  const db = createDb(url);
  t.after(() => db.$disconnect());
  await ensureTiers(db);
  const owner = await db.user.create({ data: { email: 'ada@example.test' } });
  const active = await issueKey(db, { ownerId: owner.id, name: 'ci' }, SYSTEM_ACTOR);
  const untouched = await issueKey(db, { ownerId: owner.id, name: 'prod' }, SYSTEM_ACTOR);
  const actor = { label: 'leak-report', ip: '198.51.100.7' };

  const first = await disableLeakedSecrets(
    db,
    [active.secret, active.secret, generateKey(), 'cf_short'],
    actor,
    'public report',
  );
  assert.deepEqual(
    { ...first, keyIds: undefined },
    { examined: 2, matched: 1, disabled: 1, alreadyDisabled: 0, keyIds: undefined },
  );
  const disabled = await db.apiKey.findUniqueOrThrow({ where: { id: active.key.id } });
  assert.ok(disabled.disabledAt);
  assert.equal(disabled.disabledReason, 'leaked: public report');
  assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: untouched.key.id } })).disabledAt, null);

  const again = await disableLeakedSecrets(db, [active.secret], actor, 'second sighting');
  assert.equal(again.alreadyDisabled, 1);
  const events = await db.auditEvent.findMany({ where: { keyId: active.key.id }, orderBy: { createdAt: 'asc' } });
  assert.deepEqual(
    events.map((e) => e.action),
    ['key.issue', 'key.leak_disable', 'key.leak_report'],
  );
  assert.equal(events[1].ip, '198.51.100.7');
});
