-- CreateTable
CREATE TABLE "OAuthClient" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL,
    "logoUri" TEXT,
    "clientUri" TEXT,
    "registeredBy" TEXT NOT NULL,
    "tokenEndpointAuthMethod" TEXT NOT NULL DEFAULT 'none',
    "secretHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "firstUsedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "OAuthClient_registeredBy_firstUsedAt_createdAt_idx" ON "OAuthClient"("registeredBy", "firstUsedAt", "createdAt");
