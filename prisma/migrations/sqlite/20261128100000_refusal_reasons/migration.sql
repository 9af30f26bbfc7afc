-- AlterTable
ALTER TABLE "RefusedCall" ADD COLUMN "requestId" TEXT;
ALTER TABLE "RefusedCall" ADD COLUMN "tool" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RefusedDaily" (
    "keyId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "lastAt" DATETIME NOT NULL,

    PRIMARY KEY ("keyId", "day", "reason"),
    CONSTRAINT "RefusedDaily_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Written by hand in place of the generated copy, which has no value for the new NOT NULL column: rows from
-- before counted only requests refused for a key that no longer works, without the reason: each takes the
-- reason of its key's newest kept refusal (every key with a count has one, written in the same transaction),
-- else "disabled".
INSERT INTO "new_RefusedDaily" ("count", "day", "keyId", "reason", "lastAt")
SELECT d."count", d."day", d."keyId",
       COALESCE((SELECT c."reason" FROM "RefusedCall" c WHERE c."keyId" = d."keyId" ORDER BY c."createdAt" DESC, c."id" DESC LIMIT 1), 'disabled'),
       d."lastAt"
  FROM "RefusedDaily" d;
DROP TABLE "RefusedDaily";
ALTER TABLE "new_RefusedDaily" RENAME TO "RefusedDaily";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
