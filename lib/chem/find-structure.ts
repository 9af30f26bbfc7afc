/**
 * Any compound by name: the measured catalogue first (lookup.ts, unchanged and synchronous), then,
 * only when it has no such compound, the PubChem-derived name table (name-table.ts), read on that
 * first miss. What comes back is the structure and identifiers, not properties: tools that work
 * from a SMILES use it to take a name, and service_query_compound to estimate what the catalogue
 * does not hold.
 */
import type { Compound } from './compounds.ts';
import { findCompound, type MatchKind, notFound } from './lookup.ts';
import {
  lookUpName,
  NAME_TABLE_SOURCE,
  type NameTable,
  type NameTableEntry,
  nameTable,
  suggestNames,
} from './name-table.ts';
import { ToolError } from './tool.ts';

export interface FoundStructure {
  name: string;
  cas?: string;
  formula: string;
  smiles: string;
  inchikey?: string;
  /** PubChem compound id, for a table entry that has one. */
  cid?: number;
  synonyms: readonly string[];
  matched_by: MatchKind;
  /** Where the structure came from: the measured catalogue, or the name table. */
  origin: 'catalogue' | 'name_table';
  /** Citation of the identifiers: the catalogue's are the project's own; the table's are PubChem's. */
  source?: string;
  compound?: Compound;
  entry?: NameTableEntry;
}

/** True for the error findCompound throws when no compound matches. */
export function isNotFound(error: unknown): error is ToolError {
  return error instanceof ToolError && error.code === 'compound_not_found';
}

/**
 * The catalogue compound a table entry is (same CAS number, else same InChIKey), found through a
 * name only the table knows ("etanol"); measured data then wins over estimates.
 */
function inCatalogue(entry: NameTableEntry): FoundStructure | undefined {
  for (const id of [entry.cas, entry.inchikey]) {
    if (!id) continue;
    try {
      return fromCatalogue(findCompound(id).compound, 'synonym');
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return undefined;
}

function fromCatalogue(compound: Compound, by: MatchKind): FoundStructure {
  return {
    name: compound.name,
    cas: compound.cas,
    formula: compound.formula,
    smiles: compound.smiles,
    ...(compound.inchikey ? { inchikey: compound.inchikey } : {}),
    synonyms: compound.synonyms,
    matched_by: by,
    origin: 'catalogue',
    compound,
  };
}

/** `entry` as a found structure. */
function fromTable(entry: NameTableEntry, by: MatchKind): FoundStructure {
  return {
    name: entry.name,
    cas: entry.cas,
    formula: entry.formula,
    smiles: entry.smiles,
    ...(entry.inchikey ? { inchikey: entry.inchikey } : {}),
    ...(entry.cid ? { cid: entry.cid } : {}),
    synonyms: entry.synonyms,
    matched_by: by,
    origin: 'name_table',
    source: NAME_TABLE_SOURCE,
    entry,
  };
}

/**
 * The table's answer to a query the catalogue missed (`miss`, its compound_not_found error). Throws
 * A table entry the catalogue holds under another name comes back as the catalogue compound.
 * ambiguous_compound for a formula several table entries share, and otherwise `miss` again, its
 * suggestions joined by the table's closest names, when the table has no match or is not installed.
 */
export function findInTable(
  query: string,
  miss: ToolError,
  table: NameTable | undefined = nameTable(),
): FoundStructure {
  if (!table) throw miss;
  const found = lookUpName(query, table);
  if (found.kind === 'found') return inCatalogue(found.match.entry) ?? fromTable(found.match.entry, found.match.by);
  if (found.kind === 'ambiguous') {
    const names = found.candidates.map((e) => e.name);
    const shown = names.slice(0, 10);
    throw new ToolError(
      'ambiguous_compound',
      `Formula ${found.formula} belongs to ${names.length} compounds: ${shown.join(', ')}${names.length > shown.length ? ', …' : ''}. Ask for one by name or CAS number.`,
      { query, formula: found.formula, candidates: names },
    );
  }
  const catalogue = Array.isArray(miss.details?.suggestions) ? (miss.details.suggestions as string[]) : [];
  const suggestions = [...new Set([...catalogue, ...suggestNames(query, table)])].slice(0, 5);
  throw notFound(query, suggestions);
}

/**
 * The structure `query` names: a catalogue compound (by name, synonym, CAS, InChIKey, unique formula
 * or SMILES, as findCompound reads it), else a name-table entry (name, synonym, CAS, InChIKey, or a
 * formula one entry has). Throws ToolError as findCompound does (invalid_arguments,
 * ambiguous_compound, compound_not_found with suggestions from both).
 */
export function findStructure(query: string): FoundStructure {
  try {
    const { compound, by } = findCompound(query);
    return fromCatalogue(compound, by);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return findInTable(query, error);
  }
}
