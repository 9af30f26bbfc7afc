-- AlterTable
ALTER TABLE "UpgradeRequest" ADD COLUMN     "channel" TEXT;

-- CreateTable
CREATE TABLE "ChannelBinding" (
    "id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChannelBinding_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChannelBindCode" (
    "codeHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChannelBindCode_pkey" PRIMARY KEY ("codeHash")
);

-- CreateTable
CREATE TABLE "ChannelDelivery" (
    "channel" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "reply" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChannelDelivery_pkey" PRIMARY KEY ("channel","deliveryId")
);

-- CreateIndex
CREATE INDEX "ChannelBinding_userId_idx" ON "ChannelBinding"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelBinding_channel_externalId_key" ON "ChannelBinding"("channel", "externalId");

-- CreateIndex
CREATE INDEX "ChannelBindCode_userId_idx" ON "ChannelBindCode"("userId");

-- CreateIndex
CREATE INDEX "ChannelDelivery_createdAt_idx" ON "ChannelDelivery"("createdAt");

-- AddForeignKey
ALTER TABLE "ChannelBinding" ADD CONSTRAINT "ChannelBinding_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChannelBindCode" ADD CONSTRAINT "ChannelBindCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
