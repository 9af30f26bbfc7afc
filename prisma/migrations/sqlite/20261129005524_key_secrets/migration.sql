-- CreateTable
CREATE TABLE "KeySecret" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "keyId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "KeySecret_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "KeySecret_keyId_idx" ON "KeySecret"("keyId");

-- CreateIndex
CREATE INDEX "KeySecret_expiresAt_idx" ON "KeySecret"("expiresAt");
