/**
 * Bad input to every portal service a form or server action calls, on a real migrated SQLite database:
 * empty, too long, multi-megabyte, wrong type, negative / NaN / Infinity / huge numbers, impossible or
 * past dates, unknown tiers and roles, control characters. Each is refused with the message the form
 * shows (a known refusal, so runAction turns it into text, never an error page), the message does not
 * echo a huge input back, and nothing at all is written. Two fast-check properties then throw generated
 * text at the staff settings form and at key names.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { hashPassword } from '../auth/password.ts';
import { createUser, UserStoreError } from '../auth/users.ts';
import type { Db } from '../db/client.ts';
import { KeyStoreError } from '../keys/errors.ts';
import { generateKey } from '../keys/format.ts';
import { MAX_LIMIT } from '../keys/store.ts';
import { PortalInputError, type Viewer } from './access.ts';
import { changeMyPassword } from './account.ts';
import { createMyKey, disableMyKey, renameMyKey } from './keys.ts';
import {
  bulkDisableLeaked,
  type SettingsForm,
  searchKeys,
  staffChangeSettings,
  staffDisableKey,
  staffEnableKey,
} from './support.ts';
import { approveUpgrade, declineUpgrade, requestUpgrade } from './upgrades.ts';
import { changeUserRole } from './users.ts';

/** Three megabytes of text: more than any field may hold. */
const HUGE = 'x'.repeat(3 * 1024 * 1024);
const HUGE_DIGITS = '9'.repeat(3 * 1024 * 1024);

/** Everything a refused input could have written: keys, users, audit events, upgrade requests. */
async function everything(db: Db) {
  return {
    keys: await db.apiKey.findMany({ orderBy: { id: 'asc' } }),
    users: await db.user.findMany({ orderBy: { id: 'asc' } }),
    audit: await db.auditEvent.findMany({ orderBy: { id: 'asc' } }),
    upgrades: await db.upgradeRequest.findMany({ orderBy: { id: 'asc' } }),
  };
}

/** A refusal runAction shows as a message: a known error class, the expected text, and short. */
function refusal(pattern: RegExp) {
  return (error: unknown) => {
    const known =
      error instanceof PortalInputError || error instanceof KeyStoreError || error instanceof UserStoreError;
    assert.ok(known, `not a refusal the form can show: ${(error as Error)?.stack ?? error}`);
    assert.match((error as Error).message, pattern);
    assert.ok(
      (error as Error).message.length < 500,
      `the message echoes the input back (${(error as Error).message.length} characters)`,
    );
    return true;
  };
}

type Case = [what: string, run: () => Promise<unknown>, expected: RegExp];

async function refuseAll(db: Db, cases: Case[]) {
  const before = await everything(db);
  for (const [what, run, expected] of cases) {
    await assert.rejects(run(), refusal(expected), what);
  }
  assert.deepEqual(await everything(db), before, 'a refused input wrote nothing');
}

const bad = (value: unknown) => value as never;

test('developer keys: bad names, expiries and reasons are refused with what to type, and write nothing', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  const { key } = await createMyKey(db, ada, { name: 'laptop', expiryDays: 30 }, actor(ada));
  const create = (name: unknown, expiryDays: unknown = 30) =>
    createMyKey(db, ada, { name: bad(name), expiryDays: bad(expiryDays) }, actor(ada));
  const names: [string, unknown, RegExp][] = [
    ['empty', '', /name of 1 to 100 characters/],
    ['spaces only', '   \t ', /name of 1 to 100 characters/],
    [
      '101 characters',
      'x'.repeat(101),
      /The key name has 101 characters; the limit is 100\. Shorten it by 1 character\./,
    ],
    ['3 MB', HUGE, /The key name has [\d,]+ characters; the limit is 100\./],
    ['a number', 42, /name of 1 to 100 characters/],
    ['null', null, /name of 1 to 100 characters/],
    ['a NUL byte', 'lap\u0000top', /key name contains an invisible control character/],
    ['an escape sequence', '\u001b[31mred', /key name contains an invisible control character/],
    ['a line break', 'lap\ntop', /key name must be one line/],
    ['a tab', 'lap\ttop', /key name must be one line/],
  ];
  await refuseAll(db, [
    ...names.map(([what, name, expected]): Case => [`create, name ${what}`, () => create(name), expected]),
    ...names.map(
      ([what, name, expected]): Case => [
        `rename, name ${what}`,
        () => renameMyKey(db, ada, key.id, bad(name), actor(ada)),
        expected,
      ],
    ),
    ...[Number.NaN, Number.POSITIVE_INFINITY, -30, 0, 7, 30.5, 1e308, '30', 'never', true].map(
      (expiry): Case => [
        `create, expiry ${String(expiry)}`,
        () => create('ok', expiry),
        /in 30, 90 or 365 days, or never/,
      ],
    ),
    [
      'disable, reason of 501 characters',
      () => disableMyKey(db, ada, key.id, 'x'.repeat(501), actor(ada)),
      /reason under 500 characters/,
    ],
    ['disable, reason of 3 MB', () => disableMyKey(db, ada, key.id, HUGE, actor(ada)), /reason under 500 characters/],
    [
      'disable, reason with a bell',
      () => disableMyKey(db, ada, key.id, 'lost\u0007', actor(ada)),
      /reason contains an invisible control character/,
    ],
  ]);
});

test('support console: bad searches, reasons, limits, expiry days, tiers and leak pastes are refused, and write nothing', async (t) => {
  const { db, ada, support, actor, issue } = await scratchPortal(t);
  const { key, secret } = await issue(ada);
  const { key: off } = await issue(ada, 'off');
  await staffDisableKey(db, support, off.id, 'lost laptop', actor(support));
  const mistyped = secret.slice(0, 10) + (secret[10] === 'a' ? 'b' : 'a') + secret.slice(11);
  const settings = (form: Partial<SettingsForm>) =>
    staffChangeSettings(
      db,
      support,
      key.id,
      { tierId: 'free', dailyQuota: '', ratePerSecond: '', expiresOn: '', ...form },
      actor(support),
      Date.parse('2026-11-26T10:00:00Z'),
    );
  const numbers = [
    '-1',
    '0',
    '1.5',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e3',
    '0x10',
    '1 000',
    '12abc',
    String(MAX_LIMIT + 1),
    '99999999999999999999',
    HUGE_DIGITS,
  ];
  const days = [
    'soon',
    '2027-02-31',
    '2027-02-29',
    '2027-13-01',
    '2027-00-10',
    '27-01-31',
    '2027-1-31',
    '31.01.2027',
    '+275760-09-13',
    HUGE,
  ];

  await refuseAll(db, [
    ['search, empty', () => searchKeys(db, support, '   '), /Type a key/],
    ['search, 201 characters', () => searchKeys(db, support, 'x'.repeat(201)), /too long for a key or an email/],
    ['search, 3 MB', () => searchKeys(db, support, HUGE), /too long for a key or an email/],
    ['search, a secret with one character changed', () => searchKeys(db, support, mistyped), /not a whole, valid key/],
    [
      'search, a secret missing its last 3 characters',
      () => searchKeys(db, support, secret.slice(0, -3)),
      /not a whole, valid key/,
    ],
    [
      'disable, no reason',
      () => staffDisableKey(db, support, key.id, '  ', actor(support)),
      /Give a reason for disabling the key/,
    ],
    [
      'disable, reason of 3 MB',
      () => staffDisableKey(db, support, key.id, HUGE, actor(support)),
      /reason under 500 characters/,
    ],
    [
      'disable, reason with NUL',
      () => staffDisableKey(db, support, key.id, 'fraud\u0000', actor(support)),
      /reason contains an invisible control character/,
    ],
    [
      'enable, no reason',
      () => staffEnableKey(db, support, off.id, '', actor(support)),
      /Give a reason for re-enabling the key/,
    ],
    [
      'enable, reason of 501 characters',
      () => staffEnableKey(db, support, off.id, 'x'.repeat(501), actor(support)),
      /reason under 500 characters/,
    ],
    ...numbers.map(
      (n): Case => [
        `daily quota ${n.slice(0, 24)}`,
        () => settings({ dailyQuota: n }),
        new RegExp(`daily quota must be a whole number of at least 1 and at most ${MAX_LIMIT}, or blank`),
      ],
    ),
    ...numbers.map(
      (n): Case => [
        `per-second limit ${n.slice(0, 24)}`,
        () => settings({ ratePerSecond: n }),
        /per-second limit must be a whole number of at least 1 and at most/,
      ],
    ),
    ...days.map(
      (day): Case => [
        `expiry ${day.slice(0, 24)}`,
        () => settings({ expiresOn: day }),
        /expiry must be a date like 2027-01-31, or blank for never/,
      ],
    ),
    ['expiry yesterday', () => settings({ expiresOn: '2026-11-25' }), /expiry is in the past/],
    ['tier unknown', () => settings({ tierId: 'gold' }), /Choose one of the tiers: free, pro\./],
    ['tier of 3 MB', () => settings({ tierId: HUGE }), /Choose one of the tiers/],
    [
      'settings reason of 501 characters',
      () => settings({ tierId: 'pro', reason: 'x'.repeat(501) }),
      /reason under 500 characters/,
    ],
    [
      'settings reason with an escape',
      () => settings({ tierId: 'pro', reason: '\u001b]0;owned\u0007' }),
      /reason contains an invisible control character/,
    ],
    [
      'leaks, no source',
      () => bulkDisableLeaked(db, support, secret, ' ', actor(support)),
      /Say where the secrets were found/,
    ],
    [
      'leaks, source of 301 characters',
      () => bulkDisableLeaked(db, support, secret, 'x'.repeat(301), actor(support)),
      /source under 300 characters/,
    ],
    [
      'leaks, source on two lines',
      () => bulkDisableLeaked(db, support, secret, 'pastebin\nticket 4', actor(support)),
      /source must be one line/,
    ],
    [
      'leaks, no text',
      () => bulkDisableLeaked(db, support, ' \n ', 'pastebin', actor(support)),
      /Paste the text that contains the leaked secrets/,
    ],
    [
      'leaks, text over 1 MB',
      () => bulkDisableLeaked(db, support, `${secret} ${HUGE}`, 'pastebin', actor(support)),
      /over 1 MB; split it/,
    ],
  ]);
});

test('upgrade requests and decisions: bad use cases, volumes, contacts and notes are refused, and write nothing', async (t) => {
  const { db, ada, support, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const { key: other } = await issue(ada, 'other');
  const ask = {
    keyId: other.id,
    useCase: 'Vapour pressures for our lab agent.',
    expectedDailyCalls: 20_000,
    contact: 'ada@example.test',
  };
  const pending = await requestUpgrade(db, ada, { ...ask, keyId: key.id });
  const request = (input: Record<string, unknown>) => requestUpgrade(db, ada, { ...ask, ...input } as typeof ask);

  await refuseAll(db, [
    ['use case empty', () => request({ useCase: '' }), /Describe your use case/],
    ['use case of 3 MB', () => request({ useCase: HUGE }), /use case under 2000 characters/],
    [
      'use case with NUL',
      () => request({ useCase: 'agent\u0000' }),
      /use case contains an invisible control character/,
    ],
    ...[Number.NaN, Number.POSITIVE_INFINITY, -5, 0, 2.5, MAX_LIMIT + 1, 1e20, '100', null].map(
      (calls): Case => [
        `expected calls ${String(calls)}`,
        () => request({ expectedDailyCalls: calls }),
        new RegExp(`whole number of at least 1 and at most ${MAX_LIMIT}`),
      ],
    ),
    ['contact empty', () => request({ contact: ' ' }), /how staff can reach you/],
    ['contact of 3 MB', () => request({ contact: HUGE }), /contact under 200 characters/],
    ['contact on two lines', () => request({ contact: 'ada@example.test\r\nBcc: x' }), /contact must be one line/],
    ['decline without a note', () => declineUpgrade(db, support, pending.id, ''), /Write a note for the developer/],
    ['decline, note of 3 MB', () => declineUpgrade(db, support, pending.id, HUGE), /note under 2000 characters/],
    [
      'decline, note with an escape',
      () => declineUpgrade(db, support, pending.id, 'no\u001b[2J'),
      /note contains an invisible control character/,
    ],
    [
      'approve, note of 2001 characters',
      () => approveUpgrade(db, support, pending.id, 'x'.repeat(2001)),
      /note under 2000 characters/,
    ],
  ]);
});

test('accounts: bad sign-up details, passwords and roles are refused with what to type, and write nothing', async (t) => {
  const { db, ada, admin, actor } = await scratchPortal(t);
  await db.user.update({ where: { id: ada.id }, data: { passwordHash: await hashPassword('the old password') } });
  const signUp = (input: Record<string, unknown>) =>
    createUser(db, { email: 'new@example.test', password: 'a long enough password', ...input } as never, {
      label: 'self-signup',
    });
  const change = (current: string, next: string, confirm = next) =>
    changeMyPassword(db, ada as Viewer, { current, next, confirm }, actor(ada));

  await refuseAll(db, [
    ['email empty', () => signUp({ email: '' }), /"" is not an email address/],
    ['email without @', () => signUp({ email: 'new-at-example.test' }), /is not an email address/],
    [
      'email with NUL',
      () => signUp({ email: 'new\u0000@example.test' }),
      /"new\\u0000@example.test" is not an email address/,
    ],
    [
      'email of 255 characters',
      () => signUp({ email: `${'x'.repeat(242)}@example.test` }),
      /at most 254 characters; this one has 255/,
    ],
    ['email of 3 MB', () => signUp({ email: `${HUGE}@example.test` }), /at most 254 characters/],
    ['email not text', () => signUp({ email: 7 }), /is not an email address/],
    ['email taken', () => signUp({ email: ' ADA@example.test ' }), /already exists/],
    ['name of 101 characters', () => signUp({ name: 'x'.repeat(101) }), /name under 100 characters/],
    ['name on two lines', () => signUp({ name: 'Ada\nLovelace' }), /name must be one line of plain text/],
    ['password of 9 characters', () => signUp({ password: '123456789' }), /at least 10 characters/],
    ['password of 201 characters', () => signUp({ password: 'x'.repeat(201) }), /at most 200 characters/],
    ['password of 3 MB', () => signUp({ password: HUGE }), /at most 200 characters/],
    ['role unknown', () => signUp({ role: 'root' }), /Unknown role "root"; use one of developer, support, admin/],
    ['current password empty', () => change('', 'a brand new password'), /Type your current password/],
    ['current password of 3 MB', () => change(HUGE, 'a brand new password'), /current password is wrong/],
    [
      'new passwords differ',
      () => change('the old password', 'a brand new password', 'a brand new passwort'),
      /two new passwords differ/,
    ],
    ['new password too short', () => change('the old password', 'short'), /at least 10 characters/],
    ['new password of 3 MB', () => change('the old password', HUGE), /at most 200 characters/],
    [
      'role change to an unknown role',
      () => changeUserRole(db, admin, ada.id, 'superuser', actor(admin)),
      /Unknown role "superuser"/,
    ],
    ['role change to an empty role', () => changeUserRole(db, admin, ada.id, '', actor(admin)), /Unknown role ""/],
  ]);
});

/** Text a person (or a fuzzer) might put in a number or date field. */
const formText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.integer({ min: -10, max: 3 * MAX_LIMIT }).map(String),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.double().map(String),
  fc
    .date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.constantFrom('', 'free', 'pro', 'gold', ' 1', '1 ', '+1', '01', 'Infinity', 'NaN', '2027-02-29', '2028-02-29'),
);

/** Month ends, where a day the calendar lacks (30 February) could roll over into the next month. */
const monthEnd = fc
  .tuple(fc.integer({ min: 2027, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 28, max: 31 }))
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${d}`);

/** Blank fields and real tiers often enough that the other fields' values get stored, not refused early. */
const orBlank = fc.oneof({ arbitrary: fc.constant(''), weight: 1 }, { arbitrary: formText, weight: 1 });
const expiryText = fc.oneof(orBlank, monthEnd);
const mostlyTier = fc.oneof(
  { arbitrary: fc.constantFrom('', 'free', 'pro'), weight: 3 },
  { arbitrary: formText, weight: 1 },
);

test('property: any text in the staff settings form is either stored as valid settings or refused with a message, never half-written', async (t) => {
  const { db, ada, support, actor, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const now = Date.now();
  await fc.assert(
    fc.asyncProperty(
      fc.record({ tierId: mostlyTier, dailyQuota: orBlank, ratePerSecond: orBlank, expiresOn: expiryText }),
      async (form) => {
        const before = await everything(db);
        try {
          await staffChangeSettings(db, support, key.id, form, actor(support), now);
        } catch (error) {
          refusal(/./)(error);
          assert.deepEqual(await everything(db), before, 'a refused change wrote nothing');
          return;
        }
        const stored = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
        assert.ok(['free', 'pro'].includes(stored.tierId));
        for (const limit of [stored.dailyQuota, stored.ratePerSecond]) {
          assert.ok(
            limit === null || (Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT),
            `stored limit ${limit}`,
          );
        }
        if (stored.expiresAt) {
          assert.ok(stored.expiresAt.getTime() > now, 'a stored expiry is in the future');
          assert.equal(
            stored.expiresAt.toISOString().slice(0, 10),
            form.expiresOn.trim(),
            'the stored expiry is the day typed',
          );
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('property: a key name is stored exactly as typed (trimmed) or refused with a message, never half-written', async (t) => {
  const { db, ada, actor } = await scratchPortal(t);
  const { key } = await createMyKey(db, ada, { name: 'laptop', expiryDays: null }, actor(ada));
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string({ maxLength: 120 }),
        fc.string({ unit: 'binary', maxLength: 120 }),
        fc.string({ unit: 'grapheme', maxLength: 60 }),
      ),
      async (name) => {
        const before = await everything(db);
        try {
          const renamed = await renameMyKey(db, ada, key.id, name, actor(ada));
          assert.equal(renamed.name, name.trim());
          assert.ok(renamed.name.length >= 1 && renamed.name.length <= 100);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: the assertion is that no control character was stored
          assert.doesNotMatch(renamed.name, /[\u0000-\u001f\u007f-\u009f]/, 'a stored name has no control characters');
        } catch (error) {
          refusal(/./)(error);
          assert.deepEqual(await everything(db), before, 'a refused name wrote nothing');
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('a pasted secret, whole or in part, is never something the search would put in a URL', async () => {
  const { looksLikeSecret } = await import('./support.ts');
  const secret = generateKey();
  for (const query of [secret, secret.slice(0, -3), secret.slice(0, 14), `Bearer ${secret}`, ` ${secret}\n`]) {
    assert.ok(looksLikeSecret(query), query);
  }
  for (const query of ['cf_abcd…wxyz', 'cf_abcd...wxyz', 'cf_abcd', 'abcd', 'ada@example.test', '']) {
    assert.ok(!looksLikeSecret(query), query);
  }
});
