-- CreateTable
CREATE TABLE "KeySecret" (
    "hash" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KeySecret_pkey" PRIMARY KEY ("hash")
);

-- CreateIndex
CREATE INDEX "KeySecret_keyId_idx" ON "KeySecret"("keyId");

-- CreateIndex
CREATE INDEX "KeySecret_expiresAt_idx" ON "KeySecret"("expiresAt");

-- AddForeignKey
ALTER TABLE "KeySecret" ADD CONSTRAINT "KeySecret_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
