/**
 * Reading the Compound table: a stored row back as a checked Compound, and the imported rows as
 * Compounds for registration with the lookup index, with the built-ins each overrides.
 */
import type { Compound } from '../chem/compounds.ts';
import type { Db } from '../db/client.ts';
import { type BuiltinRef, checkCompound } from './registration.ts';
import { BUILTIN_ORIGIN, type CompoundColumns, type ImportOverride } from './rows.ts';

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

interface StoredImport {
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
export function overridesIn(report: string | undefined, name: string): BuiltinRef[] {
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
