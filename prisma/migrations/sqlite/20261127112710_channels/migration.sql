-- AlterTable
ALTER TABLE "UpgradeRequest" ADD COLUMN "channel" TEXT;

-- CreateTable
CREATE TABLE "ChannelBinding" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "channel" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ChannelBinding_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChannelBindCode" (
    "codeHash" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ChannelBindCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChannelDelivery" (
    "channel" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "reply" TEXT,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("channel", "deliveryId")
);

-- CreateIndex
CREATE INDEX "ChannelBinding_userId_idx" ON "ChannelBinding"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelBinding_channel_externalId_key" ON "ChannelBinding"("channel", "externalId");

-- CreateIndex
CREATE INDEX "ChannelBindCode_userId_idx" ON "ChannelBindCode"("userId");

-- CreateIndex
CREATE INDEX "ChannelDelivery_createdAt_idx" ON "ChannelDelivery"("createdAt");
