/**
 * Writing the Compound table: a compound as the table's columns, the multi-row insert, and
 * loadBuiltinCompounds, which mirrors the built-in data from lib/chem/data at every start: it upserts
 * the built-in files in one transaction, skipping rows whose content hash is unchanged, deleting
 * built-in rows the files no longer have; imported rows are never touched. Imports write through the
 * same insert (import.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { allCompounds, type Compound } from '../chem/compounds.ts';
import { type DatabaseProvider, type Db, providerOf } from '../db/client.ts';
import type { Prisma } from '../db/generated/sqlite/client.ts';
import { BUILTIN_ORIGIN, type CompoundColumns } from './rows.ts';

/** Long imports on PostgreSQL need more than Prisma's 5-second default for an interactive transaction. */
export const TRANSACTION = { timeout: 120_000, maxWait: 30_000 };

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
export async function insertRows(
  tx: Prisma.TransactionClient,
  provider: DatabaseProvider,
  rows: NewRow[],
): Promise<number> {
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
