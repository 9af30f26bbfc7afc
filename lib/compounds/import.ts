/**
 * Importing compounds: an import batch (the records the ChemSep and CSV readers made of a file, see
 * import-file.ts) checked against the built-in data and earlier imports, written in one transaction,
 * and reported. A record colliding with a built-in or an earlier import is reported and not written
 * (`replace` lets it replace earlier imports and override built-in compounds: the built-ins it
 * overrides are recorded in its import's report JSON, `overrides`, and served no longer).
 */
import { allCompounds, type Compound } from '../chem/compounds.ts';
import { type Db, providerOf } from '../db/client.ts';
import { overridesIn } from './read.ts';
import { CompoundIdentifiers, describeClash, type Identified } from './registration.ts';
import { BUILTIN_ORIGIN, type CompoundColumns, type ImportOverride } from './rows.ts';
import { compoundColumns, insertRows, TRANSACTION } from './write.ts';

export type ImportFormat = 'chemsep' | 'csv';

function importOrigin(format: ImportFormat, fileName: string): string {
  return `import:${format}:${fileName}`;
}

export interface ImportRecord {
  /** Where the record is in the file: "row 4" (CSV), "compound 12" (ChemSep). */
  where: string;
  compound: Compound;
}

export interface ImportSkip {
  where: string;
  name: string;
  reason: string;
}

export interface ImportRequest {
  format: ImportFormat;
  /** The file's base name, recorded in each row's origin. */
  fileName: string;
  /** SHA-256 of the file. */
  fileHash: string;
  records: readonly ImportRecord[];
  /** Records the reader could not turn into compounds; reported with the rest. */
  skipped?: readonly ImportSkip[];
  /** Replace earlier imports a record collides with, and override the built-in compounds it collides with. */
  replace?: boolean;
  /** Work out and report everything, write nothing. */
  dryRun?: boolean;
}

export interface ImportConflict {
  where: string;
  name: string;
  cas: string;
  /** Each colliding identifier in words: `cas "74-82-8" is the cas of built-in methane`. */
  collisions: string[];
}

export interface ImportReport {
  format: ImportFormat;
  file: string;
  origin: string;
  dryRun: boolean;
  replace: boolean;
  /** The CompoundImport row (absent for a dry run). */
  importId?: string;
  totals: { records: number; imported: number; replaced: number; conflicts: number; skipped: number };
  imported: { name: string; cas: string }[];
  /** Earlier imported rows deleted in favour of a record (only with replace). */
  replaced: { name: string; cas: string; origin: string; by: string }[];
  /** Imported records that override built-in compounds (only with replace); also among `imported`. */
  overrides: ImportOverride[];
  conflicts: ImportConflict[];
  skipped: ImportSkip[];
}

type BuiltinOwner = { kind: 'builtin'; name: string; cas: string; compound: Compound };

type Owner =
  | BuiltinOwner
  | { kind: 'imported'; id: string; name: string; cas: string; origin: string; overrides: BuiltinOwner[] }
  | { kind: 'record'; where: string; name: string };

function ownerLabel(owner: Owner): string {
  if (owner.kind === 'builtin') return `built-in ${owner.name}`;
  if (owner.kind === 'imported') return `imported ${owner.name} (${owner.origin})`;
  return `${owner.where} of this file (${owner.name})`;
}

/**
 * Imports `records` in one transaction: every record that collides with nothing is written; a
 * record whose name, synonym, CAS number, InChIKey or SMILES is already taken is reported as a
 * conflict and not written, unless `replace` is set and everything it collides with is an earlier
 * import (which is then deleted) or built-in data. A record colliding with built-in compounds
 * overrides them: it is written (the built-in rows holding its name or CAS number are deleted), the
 * built-ins it overrides are listed in the report and in the import's stored report JSON, and the
 * server serves it in their place from its next start (the built-in re-sync leaves it alone).
 */
export async function importCompounds(db: Db, request: ImportRequest): Promise<ImportReport> {
  const origin = importOrigin(request.format, request.fileName);
  const report: ImportReport = {
    format: request.format,
    file: request.fileName,
    origin,
    dryRun: Boolean(request.dryRun),
    replace: Boolean(request.replace),
    totals: {
      records: request.records.length + (request.skipped?.length ?? 0),
      imported: 0,
      replaced: 0,
      conflicts: 0,
      skipped: 0,
    },
    imported: [],
    replaced: [],
    overrides: [],
    conflicts: [],
    skipped: [...(request.skipped ?? [])],
  };

  const provider = providerOf(db);
  return db.$transaction(async (tx) => {
    const taken = new CompoundIdentifiers<Owner>();
    const builtinOwners = allCompounds().map(
      (compound): BuiltinOwner => ({ kind: 'builtin', name: compound.name, cas: compound.cas, compound }),
    );
    const stored = await tx.compound.findMany({
      where: { origin: { not: BUILTIN_ORIGIN } },
      select: {
        id: true,
        name: true,
        cas: true,
        smiles: true,
        inchikey: true,
        synonyms: true,
        origin: true,
        import: { select: { report: true } },
      },
    });
    const storedOwners = stored.map((row) => {
      const refs = overridesIn(row.import?.report, row.name);
      const overrides = builtinOwners.filter((b) => refs.some((r) => r.name === b.name || r.cas === b.cas));
      return {
        row,
        owner: { kind: 'imported' as const, id: row.id, name: row.name, cas: row.cas, origin: row.origin, overrides },
      };
    });
    // Built-ins an earlier import overrides yield their identifiers to it, keeping only the rest.
    const overriddenEarlier = new Set(storedOwners.flatMap((s) => s.owner.overrides));
    for (const owner of builtinOwners) if (!overriddenEarlier.has(owner)) taken.add(owner.compound, owner);
    for (const { row, owner } of storedOwners) taken.add(storedIdentity(row), owner);
    for (const owner of overriddenEarlier) taken.add(owner.compound, owner);

    const writes: CompoundColumns[] = [];
    const deletes = new Set<string>();
    const builtinNames = new Set<string>();
    const builtinCas = new Set<string>();
    for (const { where, compound } of request.records) {
      const clashes = taken.clashes(compound);
      const replaceable = request.replace && clashes.every((c) => c.owner.kind !== 'record');
      if (clashes.length > 0 && !replaceable) {
        report.conflicts.push({
          where,
          name: compound.name,
          cas: compound.cas,
          collisions: clashes.map((c) => describeClash(c, ownerLabel)),
        });
        continue;
      }
      for (const clash of clashes) {
        if (clash.owner.kind !== 'imported') continue;
        const owner = clash.owner;
        if (deletes.has(owner.id)) continue;
        deletes.add(owner.id);
        taken.remove(owner);
        report.replaced.push({
          name: owner.name,
          cas: owner.cas,
          origin: owner.origin,
          by: `${where} (${compound.name})`,
        });
        // The built-ins the replaced import overrode take their identifiers back (this record may override them in turn).
        for (const builtin of owner.overrides) {
          taken.remove(builtin);
          taken.add(builtin.compound, builtin);
        }
      }
      const overridden = [...new Set(taken.clashes(compound).map((c) => c.owner as BuiltinOwner))];
      for (const builtin of overridden) taken.remove(builtin);
      taken.add(compound, { kind: 'record', where, name: compound.name });
      for (const builtin of overridden) taken.add(builtin.compound, builtin);
      if (overridden.length) {
        report.overrides.push({
          where,
          name: compound.name,
          cas: compound.cas,
          builtins: overridden.map((b) => ({ name: b.name, cas: b.cas })),
        });
        builtinNames.add(compound.name);
        builtinCas.add(compound.cas);
      }
      writes.push(compoundColumns(compound));
      report.imported.push({ name: compound.name, cas: compound.cas });
    }
    report.totals = {
      ...report.totals,
      imported: report.imported.length,
      replaced: report.replaced.length,
      conflicts: report.conflicts.length,
      skipped: report.skipped.length,
    };
    if (request.dryRun) return report;

    const log = await tx.compoundImport.create({
      data: {
        format: request.format,
        fileName: request.fileName,
        fileHash: request.fileHash,
        imported: report.totals.imported,
        replaced: report.totals.replaced,
        conflicts: report.totals.conflicts,
        skipped: report.totals.skipped,
        report: JSON.stringify({
          replaced: report.replaced,
          overrides: report.overrides,
          conflicts: report.conflicts,
          skipped: report.skipped,
        }),
      },
    });
    report.importId = log.id;
    if (deletes.size) await tx.compound.deleteMany({ where: { id: { in: [...deletes] } } });
    // The mirrored rows of overridden built-ins holding the record's name or CAS number make way (a start does not bring them back).
    if (builtinNames.size) {
      await tx.compound.deleteMany({
        where: { origin: BUILTIN_ORIGIN, OR: [{ name: { in: [...builtinNames] } }, { cas: { in: [...builtinCas] } }] },
      });
    }
    await insertRows(
      tx,
      provider,
      writes.map((w) => ({ ...w, origin, importId: log.id })),
    );
    return report;
  }, TRANSACTION);
}

function storedIdentity(row: {
  name: string;
  cas: string;
  smiles: string;
  inchikey: string | null;
  synonyms: string;
}): Identified {
  return {
    name: row.name,
    cas: row.cas,
    smiles: row.smiles,
    ...(row.inchikey ? { inchikey: row.inchikey } : {}),
    synonyms: JSON.parse(row.synonyms) as string[],
  };
}
