-- CreateTable
CREATE TABLE "RefusedDaily" (
    "keyId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "lastAt" DATETIME NOT NULL,

    PRIMARY KEY ("keyId", "day"),
    CONSTRAINT "RefusedDaily_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RefusedCall" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "keyId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "clientAddress" TEXT,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "RefusedCall_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RefusedCall_keyId_createdAt_idx" ON "RefusedCall"("keyId", "createdAt");
