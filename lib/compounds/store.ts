/**
 * The Compound table: the built-in data mirrored from lib/chem/data at every start, and the records
 * an operator imported. A row stores a lib/chem `Compound` generically (identity columns plus JSON
 * text), so new properties and correlations need no migration.
 *
 * - loadBuiltinCompounds: upserts the built-in files in one transaction, skipping rows whose content
 *   hash is unchanged, deleting built-in rows the files no longer have; imported rows are never
 *   touched.
 * - loadImportedCompounds: the imported rows as Compounds, for registration with the lookup index,
 *   with the built-ins each overrides.
 * - importCompounds: writes an import in one transaction; a record colliding with a built-in or an
 *   earlier import is reported and not written (`replace` lets it replace earlier imports and
 *   override built-in compounds: the built-ins it overrides are recorded in its import's report
 *   JSON, `overrides`, and served no longer).
 */
import { createHash, randomUUID } from 'node:crypto';
import { allCompounds, type Compound } from '../chem/compounds.ts';
import { type DatabaseProvider, type Db, providerOf } from '../db/client.ts';
import type { Prisma } from '../db/generated/sqlite/client.ts';
import {
  type BuiltinRef,
  CompoundIdentifiers,
  checkCompound,
  describeClash,
  type Identified,
  registerCompounds,
} from './registration.ts';

export const BUILTIN_ORIGIN = 'builtin';

export type ImportFormat = 'chemsep' | 'csv';

export function importOrigin(format: ImportFormat, fileName: string): string {
  return `import:${format}:${fileName}`;
}

/** Long imports on PostgreSQL need more than Prisma's 5-second default for an interactive transaction. */
const TRANSACTION = { timeout: 120_000, maxWait: 30_000 };

interface CompoundColumns {
  name: string;
  cas: string;
  formula: string;
  smiles: string;
  inchikey: string | null;
  synonyms: string;
  properties: string;
  correlations: string | null;
  notes: string | null;
  contentHash: string;
}

/** A compound as the table's columns, with the hash that tells whether a stored row is current. */
export function compoundColumns(compound: Compound): CompoundColumns {
  const columns = {
    name: compound.name,
    cas: compound.cas,
    formula: compound.formula,
    smiles: compound.smiles,
    inchikey: compound.inchikey ?? null,
    synonyms: JSON.stringify(compound.synonyms),
    properties: JSON.stringify(compound.properties),
    correlations: compound.correlations ? JSON.stringify(compound.correlations) : null,
    notes: compound.notes ? JSON.stringify(compound.notes) : null,
  };
  return { ...columns, contentHash: createHash('sha256').update(JSON.stringify(columns)).digest('hex') };
}

/** A stored row back as a checked Compound; throws naming the defect. */
export function compoundFromRow(row: Omit<CompoundColumns, 'contentHash'>): Compound {
  return checkCompound({
    name: row.name,
    cas: row.cas,
    formula: row.formula,
    smiles: row.smiles,
    ...(row.inchikey === null ? {} : { inchikey: row.inchikey }),
    synonyms: JSON.parse(row.synonyms),
    properties: JSON.parse(row.properties),
    ...(row.correlations === null ? {} : { correlations: JSON.parse(row.correlations) }),
    ...(row.notes === null ? {} : { notes: JSON.parse(row.notes) }),
  });
}

type NewRow = CompoundColumns & { origin: string; importId: string | null };

const INSERT_COLUMNS = [
  'id',
  'name',
  'cas',
  'formula',
  'smiles',
  'inchikey',
  'synonyms',
  'properties',
  'correlations',
  'notes',
  'origin',
  'contentHash',
  'importId',
  'createdAt',
  'updatedAt',
];
const ROWS_PER_INSERT = 100;

/**
 * Inserts rows with one multi-row INSERT per hundred. Prisma's createMany spends seconds on the few
 * hundred kilobytes of JSON a full load carries (measured on 328 built-in compounds: 2.7 s on a
 * process's first load, 0.5 s after, against 0.1 s for this). The SQL differs between the providers
 * only in placeholders and timestamps: SQLite stores DateTime as epoch ms (see schema.prisma), the
 * PostgreSQL columns are timestamp(3) holding UTC, given here as UTC text.
 */
async function insertRows(tx: Prisma.TransactionClient, provider: DatabaseProvider, rows: NewRow[]): Promise<number> {
  const now = Date.now();
  const timestamp = provider === 'postgresql' ? new Date(now).toISOString() : now;
  let inserted = 0;
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const values = [
        randomUUID(),
        row.name,
        row.cas,
        row.formula,
        row.smiles,
        row.inchikey,
        row.synonyms,
        row.properties,
        row.correlations,
        row.notes,
        row.origin,
        row.contentHash,
        row.importId,
        timestamp,
        timestamp,
      ];
      const placeholders = values.map((value, i) => {
        params.push(value);
        if (provider === 'sqlite') return '?';
        return i >= values.length - 2 ? `$${params.length}::timestamp(3)` : `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    const columns = INSERT_COLUMNS.map((c) => `"${c}"`).join(', ');
    inserted += await tx.$executeRawUnsafe(
      `INSERT INTO "Compound" (${columns}) VALUES ${tuples.join(', ')}`,
      ...params,
    );
  }
  return inserted;
}

// ─── Built-in data ───────────────────────────────────────────────────────────

export interface BuiltinSync {
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  /** Built-ins not stored because an imported row holds their name or CAS number (they are still served). */
  blocked: { name: string; reason: string }[];
}

/**
 * Brings the built-in rows in line with the data files. A row is kept when both its name and CAS
 * number still belong to one compound of the files (rewritten only if its content hash changed);
 * any other built-in row is deleted and the compound inserted afresh, so renames and CAS corrections
 * can never trip over the unique columns. Everything happens in one transaction.
 */
export async function loadBuiltinCompounds(
  db: Db,
  compounds: readonly Compound[] = allCompounds(),
): Promise<BuiltinSync> {
  const wanted = compounds.map(compoundColumns);
  const provider = providerOf(db);
  return db.$transaction(async (tx) => {
    const rows = await tx.compound.findMany({
      select: { id: true, name: true, cas: true, origin: true, contentHash: true },
    });
    const builtins = new Map(
      rows.filter((r) => r.origin === BUILTIN_ORIGIN).map((r) => [`${r.name}\u0000${r.cas}`, r]),
    );
    const importedNames = new Map(rows.filter((r) => r.origin !== BUILTIN_ORIGIN).map((r) => [r.name, r]));
    const importedCas = new Map(rows.filter((r) => r.origin !== BUILTIN_ORIGIN).map((r) => [r.cas, r]));

    const result: BuiltinSync = { created: 0, updated: 0, deleted: 0, unchanged: 0, blocked: [] };
    const kept = new Set<string>();
    const updates: { id: string; columns: CompoundColumns }[] = [];
    const creates: CompoundColumns[] = [];
    for (const columns of wanted) {
      const row = builtins.get(`${columns.name}\u0000${columns.cas}`);
      if (row) {
        kept.add(row.id);
        if (row.contentHash === columns.contentHash) result.unchanged++;
        else updates.push({ id: row.id, columns });
        continue;
      }
      const holder = importedNames.get(columns.name) ?? importedCas.get(columns.cas);
      if (holder) {
        result.blocked.push({
          name: columns.name,
          reason: `the imported compound ${holder.name} (${holder.origin}) holds its ${holder.name === columns.name ? 'name' : `CAS number ${columns.cas}`}`,
        });
        continue;
      }
      creates.push(columns);
    }
    const stale = rows.filter((r) => r.origin === BUILTIN_ORIGIN && !kept.has(r.id)).map((r) => r.id);
    if (stale.length) result.deleted = (await tx.compound.deleteMany({ where: { id: { in: stale } } })).count;
    for (const { id, columns } of updates) await tx.compound.update({ where: { id }, data: columns });
    result.updated = updates.length;
    result.created = await insertRows(
      tx,
      provider,
      creates.map((c) => ({ ...c, origin: BUILTIN_ORIGIN, importId: null })),
    );
    return result;
  }, TRANSACTION);
}

// ─── Start-up ────────────────────────────────────────────────────────────────

export interface CompoundStartup {
  builtin: BuiltinSync;
  /** Imported compounds the tools now serve. */
  served: number;
  /** Imported compounds left out, each with why (unreadable, or shadowed by built-in data). */
  left: { name: string; reason: string }[];
  /** Built-in compounds not served because an imported compound overrides them (imported with --replace). */
  overridden: { builtin: BuiltinRef; by: { name: string; cas: string } }[];
}

/**
 * What the server does at start: mirror the built-in data into the table, then hand the imported
 * compounds to the lookup index (lib/chem never reads the database itself).
 */
export async function prepareCompounds(db: Db): Promise<CompoundStartup> {
  const builtin = await loadBuiltinCompounds(db);
  const { compounds, unreadable, overrides } = await loadImportedCompounds(db);
  const { registered, refused, overridden } = registerCompounds(compounds, { overrides });
  return {
    builtin,
    served: registered.length,
    overridden: overridden.map(({ builtin: b, by }) => ({
      builtin: { name: b.name, cas: b.cas },
      by: { name: by.name, cas: by.cas },
    })),
    left: [
      ...unreadable.map((u) => ({ name: u.name, reason: `${u.origin}: ${u.reason}` })),
      ...refused.map((r) => ({ name: r.compound.name, reason: r.reason })),
    ],
  };
}

// ─── Imported data ───────────────────────────────────────────────────────────

export interface StoredImport {
  compounds: Compound[];
  /** Rows that no longer pass the checks (e.g. a property since renamed), each with why. */
  unreadable: { name: string; origin: string; reason: string }[];
  /** The compounds imported with --replace over built-in data, each with the built-ins it overrides. */
  overrides: Map<Compound, BuiltinRef[]>;
}

/**
 * The built-ins the imported row `name` overrides, from its import's report JSON (`overrides`: one
 * entry per overriding record, `{ where, name, cas, builtins: [{ name, cas }] }`).
 */
function overridesIn(report: string | undefined, name: string): BuiltinRef[] {
  if (!report) return [];
  try {
    const entries = (JSON.parse(report) as { overrides?: ImportOverride[] }).overrides ?? [];
    return entries.find((e) => e.name === name)?.builtins.map((b) => ({ name: b.name, cas: b.cas })) ?? [];
  } catch {
    return [];
  }
}

/** Every imported row as a Compound, oldest first. */
export async function loadImportedCompounds(db: Db): Promise<StoredImport> {
  const rows = await db.compound.findMany({
    where: { origin: { not: BUILTIN_ORIGIN } },
    orderBy: [{ createdAt: 'asc' }, { name: 'asc' }],
    include: { import: { select: { report: true } } },
  });
  const result: StoredImport = { compounds: [], unreadable: [], overrides: new Map() };
  for (const row of rows) {
    try {
      const compound = compoundFromRow(row);
      result.compounds.push(compound);
      const builtins = overridesIn(row.import?.report, row.name);
      if (builtins.length) result.overrides.set(compound, builtins);
    } catch (error) {
      result.unreadable.push({ name: row.name, origin: row.origin, reason: (error as Error).message });
    }
  }
  return result;
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

/** A record imported with --replace in place of built-in compounds. */
export interface ImportOverride {
  where: string;
  name: string;
  cas: string;
  builtins: BuiltinRef[];
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
