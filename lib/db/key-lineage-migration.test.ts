/**
 * The key_lineage migration on a database that already has keys: every key of a reissue chain made
 * before it (replacedById links old → new) joins the chain's first key's allowance, so a successor
 * reissued before the upgrade is not handed a fresh quota by it; and the hot path's usedOnDay then sums
 * the chain's usage. Both providers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrateAcross } from '../../test/support/migrate-across.ts';
import { scratchPostgresUrl, scratchSqliteUrl } from '../../test/support/test-databases.ts';
import type { HotPathStore } from './hot-path.ts';
import { openPostgresHotPath } from './hot-path-postgres.ts';
import { openSqliteHotPath } from './hot-path-sqlite.ts';
import { openSqliteFile } from './sqlite-file.ts';

const MIGRATION = 'key_lineage';
const DAY = '2026-11-26';

/** Rows as an installation from before the migration holds them: a, b1 → b2 → b3 (reissued twice), c1 → c2. */
const FIXTURE = `
  INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'ada@example.test', CURRENT_TIMESTAMP);
  INSERT INTO "Tier" ("id", "name", "dailyQuota", "ratePerSecond", "description", "updatedAt")
    VALUES ('free', 'Free', 1000, 1, 'free', CURRENT_TIMESTAMP);
  INSERT INTO "ApiKey" ("id", "ownerId", "name", "keyHash", "start", "end", "tierId", "replacedById", "updatedAt") VALUES
    ('b3', 'u1', 'ci', 'h-b3', 'bbb3', 'zzz3', 'free', NULL, CURRENT_TIMESTAMP),
    ('b2', 'u1', 'ci', 'h-b2', 'bbb2', 'zzz2', 'free', 'b3', CURRENT_TIMESTAMP),
    ('b1', 'u1', 'ci', 'h-b1', 'bbb1', 'zzz1', 'free', 'b2', CURRENT_TIMESTAMP),
    ('a', 'u1', 'laptop', 'h-a', 'aaaa', 'zzzz', 'free', NULL, CURRENT_TIMESTAMP),
    ('c2', 'u1', 'agent', 'h-c2', 'ccc2', 'yyy2', 'free', NULL, CURRENT_TIMESTAMP),
    ('c1', 'u1', 'agent', 'h-c1', 'ccc1', 'yyy1', 'free', 'c2', CURRENT_TIMESTAMP);
  INSERT INTO "DailyUsage" ("keyId", "day", "tool", "successes", "failures", "rateLimited") VALUES
    ('b1', '${DAY}', 'service_query_compound', 3, 1, 0),
    ('b2', '${DAY}', 'service_query_compound', 2, 0, 5),
    ('b2', '${DAY}', 'service_vapor_pressure', 1, 0, 0),
    ('b3', '${DAY}', 'service_query_compound', 1, 0, 0),
    ('b1', '2026-11-25', 'service_query_compound', 50, 0, 0),
    ('a', '${DAY}', 'service_query_compound', 7, 0, 0);
`;

for (const provider of ['sqlite', 'postgresql'] as const) {
  test(`${provider}: keys of reissue chains made before the migration share their first key's allowance after it`, async (t) => {
    const url = provider === 'sqlite' ? scratchSqliteUrl(t) : await scratchPostgresUrl(t);
    if (!url) return;
    await migrateAcross(provider, url, MIGRATION, FIXTURE);

    const store: HotPathStore =
      provider === 'sqlite' ? openSqliteHotPath(openSqliteFile(url)) : openPostgresHotPath(url);
    try {
      const lineages: Record<string, string> = {};
      for (const id of ['a', 'b1', 'b2', 'b3', 'c1', 'c2'])
        lineages[id] = (await store.findKeyByHash(`h-${id}`))!.lineageId;
      assert.deepEqual(lineages, { a: 'a', b1: 'b1', b2: 'b1', b3: 'b1', c1: 'c1', c2: 'c1' });
      // Today's use of the chain b: 4 + 3 + 1 admitted calls (rate-limited ones consume nothing), not b3's own 1.
      assert.equal(await store.usedOnDay('b1', DAY), 8);
      assert.equal(await store.usedOnDay('a', DAY), 7);
      assert.equal(await store.usedOnDay('c1', DAY), 0);
    } finally {
      await store.close();
    }
  });
}
