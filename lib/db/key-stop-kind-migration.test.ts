/**
 * The key_stop_kind migration on a database that already has stopped keys: each one's stopKind is read
 * from the reason conventions written before the column existed, so a key a leak report, its owner's
 * report or a support agent's "Leaked: …" turned off reads "leaked" after the upgrade, and /mcp's refusal
 * says the right kind of stop. Both providers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrateAcross } from '../../test/support/migrate-across.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import type { HotPathStore } from './hot-path.ts';
import { openPostgresHotPath } from './hot-path-postgres.ts';
import { openSqliteHotPath } from './hot-path-sqlite.ts';
import { openSqliteFile } from './sqlite-file.ts';

const MIGRATION = 'key_stop_kind';

/** Each key's id, disabledById, disabledReason and replacedById, and the stopKind the migration must give it. */
const KEYS: [string, string | null, string | null, string | null, string | null][] = [
  ['live', null, null, null, null],
  ['reissued', 'owner', 'reissued', 'live', 'reissued'],
  ['owner-report', 'owner', 'reported leaked by the owner', null, 'leaked'],
  ['public-report', null, 'leaked: public report, found at: https://gist.example/x', null, 'leaked'],
  ['staff-paste', 'staff', 'leaked: SUP-1093', null, 'leaked'],
  ['staff-typed', 'staff', 'Leaked: posted in a public issue (ticket SUP-1093)', null, 'leaked'],
  ['owner-off', 'owner', 'disabled by owner', null, 'owner'],
  ['staff-off', 'staff', 'abuse', null, 'support'],
  ['cli-off', null, 'rotated', null, 'operator'],
  ['old-leaked', null, 'leaked: in a CI log', 'owner-off', 'leaked'],
];

const quoted = (value: string | null) => (value === null ? 'NULL' : `'${value.replace(/'/g, "''")}'`);
const userId = (who: string | null) => (who === null ? null : who === 'owner' ? 'u1' : 's1');

const FIXTURE = `
  INSERT INTO "User" ("id", "email", "updatedAt") VALUES
    ('u1', 'ada@example.test', CURRENT_TIMESTAMP), ('s1', 'grace@example.test', CURRENT_TIMESTAMP);
  INSERT INTO "Tier" ("id", "name", "dailyQuota", "ratePerSecond", "description", "updatedAt")
    VALUES ('free', 'Free', 1000, 1, 'free', CURRENT_TIMESTAMP);
  INSERT INTO "ApiKey" ("id", "ownerId", "name", "keyHash", "start", "end", "tierId", "lineageId",
                        "disabledAt", "disabledById", "disabledReason", "replacedById", "updatedAt") VALUES
  ${KEYS.map(
    ([id, by, reason, replacedBy]) =>
      `('${id}', 'u1', '${id}', 'h-${id}', 'aaaa', 'zzzz', 'free', '${id}', ${id === 'live' ? 'NULL' : 'CURRENT_TIMESTAMP'}, ${quoted(userId(by))}, ${quoted(reason)}, ${quoted(replacedBy)}, CURRENT_TIMESTAMP)`,
  ).join(',\n')};
`;

for (const provider of ['sqlite', 'postgresql'] as const) {
  test(`${provider}: keys stopped before the migration get the stopKind their reason shows`, async (t) => {
    const url = provider === 'sqlite' ? scratchSqliteUrl(t) : await scratchPostgresUrl(t);
    if (!url) return;
    await migrateAcross(provider, url, MIGRATION, FIXTURE);

    const store: HotPathStore =
      provider === 'sqlite' ? openSqliteHotPath(openSqliteFile(url)) : openPostgresHotPath(url);
    try {
      for (const [id, , , , expected] of KEYS)
        assert.equal((await store.findKeyByHash(`h-${id}`))!.stopKind, expected, id);
    } finally {
      await store.close();
    }
  });
}
