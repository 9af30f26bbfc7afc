-- CreateTable
CREATE TABLE "KeySecret" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "keyId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "connectionId" TEXT,
    "endedAt" DATETIME,
    "endedHow" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "KeySecret_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "KeySecret_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "OAuthConnection" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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

-- CreateTable
CREATE TABLE "OAuthCode" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "clientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "codeChallenge" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "connectionId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OAuthConnection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "clientId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "refreshHash" TEXT NOT NULL,
    "refreshExpiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastRefreshedAt" DATETIME,
    "endedAt" DATETIME,
    "endedHow" TEXT,
    CONSTRAINT "OAuthConnection_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "OAuthClient" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OAuthConnection_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OAuthSpentRefresh" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "connectionId" TEXT NOT NULL,
    "spentAt" DATETIME NOT NULL,
    CONSTRAINT "OAuthSpentRefresh_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "OAuthConnection" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "KeySecret_keyId_idx" ON "KeySecret"("keyId");

-- CreateIndex
CREATE INDEX "KeySecret_connectionId_idx" ON "KeySecret"("connectionId");

-- CreateIndex
CREATE INDEX "KeySecret_expiresAt_idx" ON "KeySecret"("expiresAt");

-- CreateIndex
CREATE INDEX "OAuthClient_registeredBy_firstUsedAt_createdAt_idx" ON "OAuthClient"("registeredBy", "firstUsedAt", "createdAt");

-- CreateIndex
CREATE INDEX "OAuthCode_expiresAt_idx" ON "OAuthCode"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "OAuthConnection_refreshHash_key" ON "OAuthConnection"("refreshHash");

-- CreateIndex
CREATE INDEX "OAuthConnection_keyId_idx" ON "OAuthConnection"("keyId");

-- CreateIndex
CREATE INDEX "OAuthConnection_clientId_idx" ON "OAuthConnection"("clientId");

-- CreateIndex
CREATE INDEX "OAuthSpentRefresh_connectionId_idx" ON "OAuthSpentRefresh"("connectionId");
