/**
 * The name → structure table for compounds outside the measured catalogue: PubChem identifiers (CID,
 * CAS, formula, SMILES, InChIKey, IUPAC name, common name, synonyms) as tabulated in the identifier
 * files of the `chemicals` library (C. Bell, MIT licence; the data is PubChem's, public domain). The
 * files are read as published, tab-separated, one compound a line:
 *   CID, CAS, formula, MW, SMILES, InChI, InChIKey, IUPAC name, common name, synonyms…
 * (CID −1 where the file gives none). Only identifiers are used: no property value comes from here.
 *
 * The table is not part of the catalogue's hot path: it is read and indexed once, on the first query
 * the catalogue does not answer (`nameTable()`), from the files shipped verbatim in
 * data/third-party/pubchem-names/ (or CHEM_DATA_DIR's copy).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { editDistance } from './edit-distance.ts';
import { hillFormula, parseFormula } from './formula.ts';
import { normalizeKey } from './lookup.ts';
import { PackedKeyIndex, type PackedKeys } from './packed-key-index.ts';
import { cachedParse } from './parsed-data-cache.ts';
import { layerDir } from './third-party-data.ts';

/** The files read, most trusted first: a compound in several files keeps its first record. */
const NAME_TABLE_FILES = [
  'chemical identifiers pubchem small.tsv',
  'chemical identifiers example user db.tsv',
  'Inorganic db.tsv',
  'Anion db.tsv',
  'Cation db.tsv',
] as const;

export const NAME_TABLE_SOURCE =
  'PubChem (National Center for Biotechnology Information, https://pubchem.ncbi.nlm.nih.gov) identifiers as tabulated in the chemicals library (C. Bell, github.com/CalebBell/chemicals, chemicals/Identifiers)';

export interface NameTableEntry {
  /** The common name (the file's common-name column), else the IUPAC name. */
  name: string;
  iupacName?: string;
  cas: string;
  /** Hill formula as the file gives it. */
  formula: string;
  smiles: string;
  inchikey?: string;
  /** PubChem compound id; absent where the file has none (−1). */
  cid?: number;
  synonyms: readonly string[];
  /** The file the record came from. */
  file: string;
}

type NameMatchKind = 'name' | 'synonym' | 'cas' | 'inchikey' | 'formula';

interface NameTableMatch {
  entry: NameTableEntry;
  by: NameMatchKind;
}

/** The kinds a key can be claimed as, by their index in a packed key (see NameTable.byKey). */
const KEY_KINDS = ['name', 'synonym', 'cas', 'inchikey'] as const satisfies readonly NameMatchKind[];
type KeyKind = (typeof KEY_KINDS)[number];

export interface NameTable {
  entries: readonly NameTableEntry[];
  /**
   * Normalised name, synonym, CAS and InChIKey → the entry's index × 4 + its kind's index in KEY_KINDS;
   * a compound's own names win over others' synonyms. About 140,000 keys: packed, with a small integer
   * for each rather than a match object, they hold about 4 MB where a Map of matches held 25.
   */
  byKey: PackedKeyIndex;
  /** Hill formula → entries with it. */
  byFormula: ReadonlyMap<string, readonly NameTableEntry[]>;
}

/**
 * One line of an identifier file. The synonyms, most of the file, stay as the line's own text and are
 * split when asked for: held as arrays they would be about 400,000 strings.
 */
class NameTableRecord implements NameTableEntry {
  declare readonly iupacName?: string;
  declare readonly inchikey?: string;
  declare readonly cid?: number;

  constructor(
    readonly name: string,
    readonly cas: string,
    readonly formula: string,
    readonly smiles: string,
    readonly file: string,
    optional: { iupacName?: string; inchikey?: string; cid?: number },
    /** The line's synonym columns, tab-separated, as read. */
    private readonly synonymColumns: string,
  ) {
    Object.assign(this, optional);
  }

  /** The IUPAC name and the synonym columns, each once, without the name itself or blanks. */
  get synonyms(): readonly string[] {
    const columns = this.synonymColumns === '' ? [] : this.synonymColumns.split('\t').map((s) => s.trim());
    return [...new Set([this.iupacName ?? '', ...columns].filter((s) => s !== '' && s !== this.name))];
  }
}

/** A cheap pre-test before parsing a synonym as a formula: no spaces or lower-case start. */
const MAY_BE_FORMULA = /^[A-Z][A-Za-z0-9()[\]]*$/;
const CAS_PATTERN = /^[0-9]{2,7}-[0-9]{2}-[0-9]$/;
const INCHIKEY_PATTERN = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
/** Columns before the synonyms: CID, CAS, formula, MW, SMILES, InChI, InChIKey, IUPAC name, common name. */
const SYNONYM_COLUMN = 9;

/**
 * The records of one identifier file. Rows without a SMILES, a name or a well-formed CAS number are
 * left out (a structure is what the table is for; the query tool's answers need a CAS number).
 */
export function parseNameTableFile(text: string, file: string): NameTableEntry[] {
  const entries: NameTableEntry[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const fields = line.split('\t', SYNONYM_COLUMN);
    if (fields.length < SYNONYM_COLUMN) continue;
    const [cidText, cas, formula, , smiles, , inchikey, iupacName, commonName] = fields.map((f) => f.trim());
    const name = commonName || iupacName;
    if (!smiles || !name || !CAS_PATTERN.test(cas)) continue;
    const cid = Number(cidText);
    // A slice of the file's text, not a copy: the file stays held either way, through the names.
    const synonymStart = fields.reduce((length, field) => length + field.length + 1, 0);
    entries.push(
      new NameTableRecord(
        name,
        cas,
        formula,
        smiles,
        file,
        {
          ...(iupacName ? { iupacName } : {}),
          ...(INCHIKEY_PATTERN.test(inchikey) ? { inchikey } : {}),
          ...(Number.isInteger(cid) && cid > 0 ? { cid } : {}),
        },
        line.slice(synonymStart),
      ),
    );
  }
  return entries;
}

/**
 * A name table's indexes as plain data, so that they can be kept between starts (parsed-data-cache.ts):
 * which records are kept, the packed key index, and each Hill formula's entries (as indexes into the
 * kept entries).
 */
interface NameTableIndex {
  kept: Int32Array;
  keys: PackedKeys;
  byFormula: Map<string, Int32Array>;
}

/**
 * Indexes records. Unlike the catalogue, the table has overlaps (one compound in two files; a name
 * that is one compound's common name and another's loose synonym), so nothing throws: a later
 * record of a compound already held (same CAS or InChIKey) is dropped, and keys are claimed in
 * passes (common names, then IUPAC names, CAS, InChIKeys, then synonyms), the first claim winning.
 * Synonyms that read as formulas are not indexed.
 */
export function indexNameTable(records: readonly NameTableEntry[]): NameTableIndex {
  const seen = new Set<string>();
  const kept: number[] = [];
  records.forEach((e, i) => {
    const keys = [`cas:${e.cas}`, ...(e.inchikey ? [`key:${e.inchikey}`] : [])];
    if (keys.some((k) => seen.has(k))) return;
    for (const k of keys) seen.add(k);
    kept.push(i);
  });
  const entries = kept.map((i) => records[i]);
  const claimed = new Map<string, number>();
  const claim = (text: string | undefined, index: number, by: KeyKind) => {
    if (!text) return;
    const key = normalizeKey(text);
    if (key !== '' && !claimed.has(key)) claimed.set(key, index * KEY_KINDS.length + KEY_KINDS.indexOf(by));
  };
  const passes: [(e: NameTableEntry) => string | undefined, KeyKind][] = [
    [(e) => e.name, 'name'],
    [(e) => e.iupacName, 'synonym'],
    [(e) => e.cas, 'cas'],
    [(e) => e.inchikey, 'inchikey'],
  ];
  for (const [text, by] of passes) for (const [i, e] of entries.entries()) claim(text(e), i, by);
  // A synonym that reads as a formula ("C6H12O6" among myo-inositol's) would shadow the formula
  // lookup, which knows when isomers share it.
  for (const [i, e] of entries.entries()) {
    const formulaKey = normalizeKey(e.formula);
    for (const s of e.synonyms) {
      if (normalizeKey(s) !== formulaKey && !(MAY_BE_FORMULA.test(s) && parseFormula(s))) claim(s, i, 'synonym');
    }
  }

  const byFormula = new Map<string, number[]>();
  for (const [i, e] of entries.entries()) {
    const counts = parseFormula(e.formula);
    if (!counts) continue;
    const hill = hillFormula(counts);
    byFormula.set(hill, [...(byFormula.get(hill) ?? []), i]);
  }
  return {
    kept: Int32Array.from(kept),
    keys: PackedKeyIndex.from(claimed).toParts(),
    byFormula: new Map([...byFormula].map(([hill, indexes]) => [hill, Int32Array.from(indexes)])),
  };
}

/** The table of `records` with their index (indexNameTable's, or a kept copy of it). */
export function assembleNameTable(records: readonly NameTableEntry[], index: NameTableIndex): NameTable {
  const entries = Array.from(index.kept, (i) => records[i]);
  const byFormula = new Map<string, NameTableEntry[]>();
  for (const [hill, indexes] of index.byFormula)
    byFormula.set(
      hill,
      Array.from(indexes, (i) => entries[i]),
    );
  return { entries, byKey: PackedKeyIndex.fromParts(index.keys), byFormula };
}

/** The layer's folder (data/third-party/pubchem-names, or CHEM_DATA_DIR's). */
function nameTableDir(): string {
  return layerDir('pubchem-names');
}

let loaded: { dir: string; table: NameTable | undefined } | undefined;

/**
 * The table in `dir` (default nameTableDir()), read and indexed on first use and kept; undefined when
 * the folder holds none of NAME_TABLE_FILES. A file that is present but unreadable throws.
 */
export function nameTable(dir: string = nameTableDir()): NameTable | undefined {
  if (loaded?.dir !== dir) {
    const present = NAME_TABLE_FILES.map((file) => join(/* turbopackIgnore: true */ dir, file)).filter((path) =>
      existsSync(/* turbopackIgnore: true */ path),
    );
    const records = present.flatMap((path) =>
      parseNameTableFile(readFileSync(/* turbopackIgnore: true */ path, 'utf8'), basename(path)),
    );
    // Reading the files takes a tenth of a second; indexing them, two seconds: the index is kept.
    const table =
      present.length === 0
        ? undefined
        : assembleNameTable(
            records,
            cachedParse('name-table-index', present, () => indexNameTable(records)),
          );
    loaded = { dir, table };
  }
  return loaded.table;
}

/** Outcome of a table lookup: one entry, several sharing a formula, or none. */
type NameTableLookup =
  | { kind: 'found'; match: NameTableMatch }
  | { kind: 'ambiguous'; formula: string; candidates: readonly NameTableEntry[] }
  | { kind: 'none' };

/** `query` as a name, synonym, CAS number or InChIKey, else as a formula held by one entry. */
export function lookUpName(query: string, table: NameTable): NameTableLookup {
  const text = query.trim().replace(/^inchikey=/i, '');
  const packed = table.byKey.get(normalizeKey(text));
  if (packed !== undefined) {
    const entry = table.entries[Math.floor(packed / KEY_KINDS.length)];
    return { kind: 'found', match: { entry, by: KEY_KINDS[packed % KEY_KINDS.length] } };
  }
  const counts = parseFormula(text.replace(/\s+/g, ''));
  const sharing = counts ? table.byFormula.get(hillFormula(counts)) : undefined;
  if (sharing?.length === 1) return { kind: 'found', match: { entry: sharing[0], by: 'formula' } };
  if (sharing && sharing.length > 1) return { kind: 'ambiguous', formula: hillFormula(counts!), candidates: sharing };
  return { kind: 'none' };
}

/**
 * Up to `limit` table names within an edit distance of a third of the query (at least 1), closest
 * first. Only names, not synonyms, are scanned: the scan runs on misses and stays a few milliseconds.
 */
export function suggestNames(query: string, table: NameTable, limit = 5): string[] {
  const key = normalizeKey(query);
  if (key === '') return [];
  const limitDistance = Math.max(1, Math.floor(Array.from(key).length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const e of table.entries) {
    const score = editDistance(key, normalizeKey(e.name), limitDistance);
    if (score <= limitDistance) scored.push({ name: e.name, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((s) => s.name);
}
