-- CreateTable
CREATE TABLE "RefusedDaily" (
    "keyId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RefusedDaily_pkey" PRIMARY KEY ("keyId","day")
);

-- CreateTable
CREATE TABLE "RefusedCall" (
    "id" SERIAL NOT NULL,
    "keyId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "clientAddress" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RefusedCall_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RefusedCall_keyId_createdAt_idx" ON "RefusedCall"("keyId", "createdAt");

-- AddForeignKey
ALTER TABLE "RefusedDaily" ADD CONSTRAINT "RefusedDaily_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RefusedCall" ADD CONSTRAINT "RefusedCall_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
