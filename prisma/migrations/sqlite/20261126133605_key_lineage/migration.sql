-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "start" TEXT NOT NULL,
    "end" TEXT NOT NULL,
    "tierId" TEXT NOT NULL,
    "dailyQuota" INTEGER,
    "ratePerSecond" INTEGER,
    "expiresAt" DATETIME,
    "disabledAt" DATETIME,
    "disabledById" TEXT,
    "disabledReason" TEXT,
    "replacedById" TEXT,
    "lineageId" TEXT NOT NULL,
    "lastUsedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ApiKey_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiKey_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "Tier" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "ApiKey_replacedById_fkey" FOREIGN KEY ("replacedById") REFERENCES "ApiKey" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
-- Written by hand in place of the generated copy, which has no value for the new NOT NULL column: every key of
-- an existing reissue chain (replacedById links old -> new) gets the id of the first key of the chain, so a
-- successor reissued before this migration already shares the quota of its predecessors, and a key that was never
-- reissued gets its own id, and so does a key on no chain from a first key (a replacedById cycle, which
-- the application never writes).
WITH RECURSIVE "chain" ("id", "root") AS (
  SELECT k."id", k."id" FROM "ApiKey" k
   WHERE NOT EXISTS (SELECT 1 FROM "ApiKey" p WHERE p."replacedById" = k."id")
  UNION
  SELECT k."replacedById", c."root" FROM "chain" c JOIN "ApiKey" k ON k."id" = c."id"
   WHERE k."replacedById" IS NOT NULL
)
INSERT INTO "new_ApiKey" ("createdAt", "dailyQuota", "disabledAt", "disabledById", "disabledReason", "end", "expiresAt", "id", "keyHash", "lastUsedAt", "name", "ownerId", "ratePerSecond", "replacedById", "lineageId", "start", "tierId", "updatedAt") SELECT k."createdAt", k."dailyQuota", k."disabledAt", k."disabledById", k."disabledReason", k."end", k."expiresAt", k."id", k."keyHash", k."lastUsedAt", k."name", k."ownerId", k."ratePerSecond", k."replacedById", COALESCE("chain"."root", k."id"), k."start", k."tierId", k."updatedAt" FROM "ApiKey" k LEFT JOIN "chain" ON "chain"."id" = k."id";
DROP TABLE "ApiKey";
ALTER TABLE "new_ApiKey" RENAME TO "ApiKey";
CREATE UNIQUE INDEX "ApiKey_keyHash_key" ON "ApiKey"("keyHash");
CREATE UNIQUE INDEX "ApiKey_replacedById_key" ON "ApiKey"("replacedById");
CREATE INDEX "ApiKey_ownerId_idx" ON "ApiKey"("ownerId");
CREATE INDEX "ApiKey_start_idx" ON "ApiKey"("start");
CREATE INDEX "ApiKey_end_idx" ON "ApiKey"("end");
CREATE INDEX "ApiKey_lineageId_idx" ON "ApiKey"("lineageId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
