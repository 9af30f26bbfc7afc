-- CreateTable
CREATE TABLE "KeySecret" (
    "hash" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "connectionId" TEXT,
    "endedAt" TIMESTAMP(3),
    "endedHow" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KeySecret_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "OAuthClient" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL,
    "logoUri" TEXT,
    "clientUri" TEXT,
    "registeredBy" TEXT NOT NULL,
    "tokenEndpointAuthMethod" TEXT NOT NULL DEFAULT 'none',
    "secretHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "firstUsedAt" TIMESTAMP(3),

    CONSTRAINT "OAuthClient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuthCode" (
    "hash" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "codeChallenge" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "connectionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthCode_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "OAuthConnection" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "refreshHash" TEXT NOT NULL,
    "refreshExpiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastRefreshedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "endedHow" TEXT,

    CONSTRAINT "OAuthConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuthSpentRefresh" (
    "hash" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "spentAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OAuthSpentRefresh_pkey" PRIMARY KEY ("hash")
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

-- AddForeignKey
ALTER TABLE "KeySecret" ADD CONSTRAINT "KeySecret_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KeySecret" ADD CONSTRAINT "KeySecret_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "OAuthConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthConnection" ADD CONSTRAINT "OAuthConnection_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "OAuthClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthConnection" ADD CONSTRAINT "OAuthConnection_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthSpentRefresh" ADD CONSTRAINT "OAuthSpentRefresh_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "OAuthConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;
