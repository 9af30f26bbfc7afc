-- CreateTable
CREATE TABLE "Compound" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "cas" TEXT NOT NULL,
    "formula" TEXT NOT NULL,
    "smiles" TEXT NOT NULL,
    "inchikey" TEXT,
    "synonyms" TEXT NOT NULL,
    "properties" TEXT NOT NULL,
    "correlations" TEXT,
    "notes" TEXT,
    "origin" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "importId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Compound_importId_fkey" FOREIGN KEY ("importId") REFERENCES "CompoundImport" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompoundImport" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "format" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "fileHash" TEXT NOT NULL,
    "imported" INTEGER NOT NULL,
    "replaced" INTEGER NOT NULL,
    "conflicts" INTEGER NOT NULL,
    "skipped" INTEGER NOT NULL,
    "report" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "Compound_name_key" ON "Compound"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Compound_cas_key" ON "Compound"("cas");

-- CreateIndex
CREATE INDEX "Compound_origin_idx" ON "Compound"("origin");

-- CreateIndex
CREATE INDEX "Compound_importId_idx" ON "Compound"("importId");
