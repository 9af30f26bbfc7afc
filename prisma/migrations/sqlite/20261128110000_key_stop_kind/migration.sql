-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "stopKind" TEXT;

-- Written by hand after the generated column: how each key that is off was stopped, read from the reason
-- conventions used before the column existed. A reissue wrote "reissued", a leak report "leaked: <where>" and
-- the owners own report "reported leaked by the owner" (staff often typed "Leaked ..." themselves, so any reason
-- starting with "leaked" counts). Otherwise it is who disabled it: the owner, a staff member, or nobody (the
-- operator command line).
UPDATE "ApiKey" SET "stopKind" = CASE
    WHEN "replacedById" IS NOT NULL AND "disabledReason" = 'reissued' THEN 'reissued'
    WHEN "disabledReason" = 'reported leaked by the owner' OR lower("disabledReason") LIKE 'leaked%' THEN 'leaked'
    WHEN "disabledById" = "ownerId" THEN 'owner'
    WHEN "disabledById" IS NOT NULL THEN 'support'
    ELSE 'operator'
  END
 WHERE "disabledAt" IS NOT NULL;
