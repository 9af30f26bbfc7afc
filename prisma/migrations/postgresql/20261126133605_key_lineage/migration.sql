-- AlterTable
-- Written by hand around the generated "ADD COLUMN ... NOT NULL": existing keys need a value first. Every key
-- of an existing reissue chain (replacedById links old -> new) gets the id of the first key of the chain, so a
-- successor reissued before this migration already shares the quota of its predecessors, and a key that was never
-- reissued gets its own id.
ALTER TABLE "ApiKey" ADD COLUMN     "lineageId" TEXT;

WITH RECURSIVE "chain" ("id", "root") AS (
  SELECT k."id", k."id" FROM "ApiKey" k
   WHERE NOT EXISTS (SELECT 1 FROM "ApiKey" p WHERE p."replacedById" = k."id")
  UNION
  SELECT k."replacedById", c."root" FROM "chain" c JOIN "ApiKey" k ON k."id" = c."id"
   WHERE k."replacedById" IS NOT NULL
)
UPDATE "ApiKey" k SET "lineageId" = "chain"."root" FROM "chain" WHERE "chain"."id" = k."id";

-- A key on no chain from a first key (a replacedById cycle, which the application never writes) keeps its own id.
UPDATE "ApiKey" SET "lineageId" = "id" WHERE "lineageId" IS NULL;

ALTER TABLE "ApiKey" ALTER COLUMN "lineageId" SET NOT NULL;

-- CreateIndex
CREATE INDEX "ApiKey_lineageId_idx" ON "ApiKey"("lineageId");
