-- AlterTable
ALTER TABLE "RefusedCall" ADD COLUMN     "requestId" TEXT,
ADD COLUMN     "tool" TEXT;

-- Written by hand in place of the generated ALTER, which has no value for the new NOT NULL column: rows from
-- before counted only requests refused for a key that no longer works, without the reason: each takes the
-- reason of its key's newest kept refusal (every key with a count has one, written in the same transaction),
-- else "disabled".
ALTER TABLE "RefusedDaily" ADD COLUMN "reason" TEXT;
UPDATE "RefusedDaily" d
   SET "reason" = COALESCE((SELECT c."reason" FROM "RefusedCall" c WHERE c."keyId" = d."keyId" ORDER BY c."createdAt" DESC, c."id" DESC LIMIT 1), 'disabled');
ALTER TABLE "RefusedDaily" ALTER COLUMN "reason" SET NOT NULL,
DROP CONSTRAINT "RefusedDaily_pkey",
ADD CONSTRAINT "RefusedDaily_pkey" PRIMARY KEY ("keyId", "day", "reason");
