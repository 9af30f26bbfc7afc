/**
 * Finding a compound from what a person or an LLM types: a name or synonym in any case, spacing,
 * hyphenation or primes ("n-Butane", "N-BUTANE", "n butane", "butane"), a Chinese name ("乙醇"),
 * a CAS number, an InChIKey, a formula held by exactly one compound ("CO2", "C2H5OH"), or a SMILES
 * string: as stored, or written any other way ("OCC", "C1=CC=CC=C1") once RDKit is loaded, by its
 * canonical SMILES. Exact matches are one hash lookup in an index built once; only a miss pays for
 * the edit-distance scan that produces "did you mean" suggestions.
 *
 * RDKit loads asynchronously while lookups are synchronous: `prepareCompoundIndex()` loads it and
 * computes each compound's canonical SMILES once; await it before serving (an async tool may await
 * it in its run). Until then a SMILES query matches only as stored.
 */
import { chemsepFile } from './chemsep-layer.ts';
import { allCompounds, type Compound } from './compounds.ts';
import { editDistance } from './edit-distance.ts';
import { hillFormula, parseFormula } from './formula.ts';
import { mixtureError } from './mixture-names.ts';
import { cachedParse } from './parsed-data-cache.ts';
import { findPseudoPure, PSEUDO_PURE_TOOLS } from './pseudo-pure.ts';
import { canonicalSmiles, loadedRDKit, loadRDKit } from './rdkit.ts';
import { bundledCompounds, registeredCompounds, registeredOverrides } from './registered-compounds.ts';
import { ToolError } from './tool.ts';

export type MatchKind = 'name' | 'synonym' | 'cas' | 'inchikey' | 'formula' | 'smiles';

export interface CompoundMatch {
  compound: Compound;
  by: MatchKind;
}

export interface CompoundIndex {
  /** Normalised name, synonym, CAS and InChIKey → compound. */
  byKey: ReadonlyMap<string, CompoundMatch>;
  /** Hill formula → every compound with it (isomers share one). */
  byFormula: ReadonlyMap<string, readonly Compound[]>;
  /** SMILES exactly as stored: case matters in SMILES ("c1ccccc1" is benzene, "C1CCCCC1" cyclohexane). */
  bySmiles: ReadonlyMap<string, Compound>;
  /** Normalised names, synonyms and formulas, for suggestions. */
  terms: readonly { key: string; compound: Compound }[];
  /** The compounds served last (bundled ChemSep-only ones): a structure another compound has stays that one's. */
  fallback: ReadonlySet<Compound>;
}

/** Queries longer than this are not names; refusing them keeps the suggestion scan bounded. */
export const MAX_QUERY_LENGTH = 200;

const IGNORED = /[\s\-‐‑‒–—―−_'’′″‴`´]/u;

/**
 * Case-, width-, spacing-, hyphen- and prime-insensitive form of a name, CAS number or InChIKey. Split
 * and joined rather than replaced: V8's replace() here gives a tree of the pieces, which a Map keeps as
 * its key, at two to three times the memory of the flat string join() gives (the indexes hold
 * hundreds of thousands of keys while they are built).
 */
export function normalizeKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().split(IGNORED).join('');
}

/** A compound served in place of another (an imported compound overriding a built-in one). */
interface CompoundAlias {
  /** The compound no longer served… */
  of: Compound;
  /** …and the one its identifiers resolve to. */
  to: Compound;
}

/**
 * Builds the lookup index. Two compounds claiming the same normalised name, synonym, CAS or
 * InChIKey is a data error (a query could not say which one it meant), so it throws. `aliases`
 * make the names, synonyms, CAS numbers and InChIKeys of compounds left out resolve to the compound
 * replacing them, wherever no indexed compound holds them (SMILES are not aliased: the structure
 * index lists each compound once). `fallback` compounds are served last: each takes only the names,
 * synonyms, CAS number, InChIKey, SMILES and formula no other compound holds, so adding them never
 * changes what an existing query finds.
 */
export function buildCompoundIndex(
  compounds: readonly Compound[],
  aliases: readonly CompoundAlias[] = [],
  fallback: readonly Compound[] = [],
): CompoundIndex {
  const byKey = new Map<string, CompoundMatch>();
  const byFormula = new Map<string, Compound[]>();
  const bySmiles = new Map<string, Compound>();
  const terms: { key: string; compound: Compound }[] = [];

  const claim = (text: string, compound: Compound, by: MatchKind) => {
    const key = normalizeKey(text);
    const existing = byKey.get(key);
    if (existing && existing.compound !== compound) {
      throw new Error(
        `"${text}" (${by} of ${compound.name}) collides with the ${existing.by} of ${existing.compound.name}`,
      );
    }
    if (!existing) byKey.set(key, { compound, by });
    if (by === 'name' || by === 'synonym') terms.push({ key, compound });
  };

  for (const compound of compounds) {
    claim(compound.name, compound, 'name');
    for (const synonym of compound.synonyms) claim(synonym, compound, 'synonym');
    claim(compound.cas, compound, 'cas');
    if (compound.inchikey) claim(compound.inchikey, compound, 'inchikey');

    const other = bySmiles.get(compound.smiles);
    if (other) throw new Error(`SMILES ${compound.smiles} of ${compound.name} is also that of ${other.name}`);
    bySmiles.set(compound.smiles, compound);

    byFormula.set(compound.formula, [...(byFormula.get(compound.formula) ?? []), compound]);
    terms.push({ key: normalizeKey(compound.formula), compound });
  }
  for (const { of, to } of aliases) {
    const alias = (text: string, by: MatchKind) => {
      const key = normalizeKey(text);
      if (byKey.has(key)) return;
      byKey.set(key, { compound: to, by });
      if (by === 'name' || by === 'synonym') terms.push({ key, compound: to });
    };
    alias(of.name, 'synonym');
    for (const synonym of of.synonyms) alias(synonym, 'synonym');
    alias(of.cas, 'cas');
    if (of.inchikey) alias(of.inchikey, 'inchikey');
  }
  const primaryFormulas = new Set(byFormula.keys());
  for (const compound of fallback) {
    const take = (text: string, by: MatchKind) => {
      const key = normalizeKey(text);
      if (byKey.has(key)) return;
      byKey.set(key, { compound, by });
      if (by === 'name' || by === 'synonym') terms.push({ key, compound });
    };
    take(compound.name, 'name');
    for (const synonym of compound.synonyms) take(synonym, 'synonym');
    take(compound.cas, 'cas');
    if (compound.inchikey) take(compound.inchikey, 'inchikey');
    if (!bySmiles.has(compound.smiles)) bySmiles.set(compound.smiles, compound);
    if (!primaryFormulas.has(compound.formula))
      byFormula.set(compound.formula, [...(byFormula.get(compound.formula) ?? []), compound]);
  }
  return { byKey, byFormula, bySmiles, terms, fallback: new Set(fallback) };
}

let builtIndex: { registered: readonly Compound[]; bundled: readonly Compound[]; index: CompoundIndex } | undefined;

/**
 * The built-in compounds plus those registered at start-up (./registered-compounds.ts); a built-in
 * a registered compound overrides is left out, its identifiers resolving to the override. Last, the
 * bundled ChemSep-only compounds, where neither holds their CAS number.
 */
export function defaultIndex(): CompoundIndex {
  const registered = registeredCompounds();
  const bundled = bundledCompounds();
  if (builtIndex?.registered !== registered || builtIndex.bundled !== bundled) {
    const overrides = registeredOverrides();
    const builtins = allCompounds();
    const served = [...builtins.filter((c) => !overrides.has(c.name)), ...registered];
    const aliases = builtins.flatMap((c) => {
      const to = overrides.get(c.name);
      return to ? [{ of: c, to }] : [];
    });
    const held = new Set([...builtins, ...registered].map((c) => c.cas));
    const fallback = bundled.filter((c) => !held.has(c.cas));
    builtIndex = { registered, bundled, index: buildCompoundIndex(served, aliases, fallback) };
  }
  return builtIndex.index;
}

/**
 * The compound `query` names. Order: names, synonyms, CAS and InChIKey first; then a formula
 * held by one compound (so "CO" is carbon monoxide, not methanol's SMILES); then a stored SMILES;
 * then, once prepareCompoundIndex() has run, any SMILES of the same structure (same RDKit canonical
 * SMILES); only then is a formula several compounds share refused as ambiguous.
 * Throws ToolError: invalid_arguments (empty or overlong query), ambiguous_compound (a formula or
 * structure several compounds share), is_mixture (a mixture's name: ./mixture-names.ts), compound_not_found
 * (with suggestions in the message and details).
 */
export function findCompound(query: string, index: CompoundIndex = defaultIndex()): CompoundMatch {
  const text = query.trim().replace(/^inchikey=/i, '');
  if (text === '')
    throw new ToolError(
      'invalid_arguments',
      'compound_name is empty: give a name, synonym, CAS number, formula, SMILES or InChIKey.',
    );
  if (text.length > MAX_QUERY_LENGTH) {
    throw new ToolError('invalid_arguments', `compound_name is longer than ${MAX_QUERY_LENGTH} characters.`);
  }

  const byKey = index.byKey.get(normalizeKey(text));
  if (byKey) return byKey;

  const counts = parseFormula(text.replace(/\s+/g, ''));
  const sharing = counts ? index.byFormula.get(hillFormula(counts)) : undefined;
  if (sharing && sharing.length === 1) return { compound: sharing[0], by: 'formula' };

  // A SMILES can also read as a formula several compounds share ("[H]OC([H])([H])C([H])([H])[H]" is
  // C2H6O); when it names one structure, that is what it meant.
  const bySmiles = index.bySmiles.get(text);
  if (bySmiles) return { compound: bySmiles, by: 'smiles' };
  const sameStructure = findByStructure(text, index);
  if (sameStructure.length === 1) return { compound: sameStructure[0], by: 'smiles' };

  if (sharing && sharing.length > 1) {
    const names = sharing.map((c) => c.name);
    throw new ToolError(
      'ambiguous_compound',
      `Formula ${sharing[0].formula} belongs to ${names.length} compounds: ${names.join(', ')}. Ask for one by name or CAS number.`,
      { query, formula: sharing[0].formula, candidates: names },
    );
  }
  if (sameStructure.length > 1) {
    const names = sameStructure.map((c) => c.name);
    throw new ToolError(
      'ambiguous_compound',
      `SMILES ${text} is the structure of ${names.length} compounds: ${names.join(', ')}. Ask for one by name or CAS number.`,
      {
        query,
        candidates: names,
      },
    );
  }

  const mixture = mixtureRefusal(text);
  if (mixture) throw mixture;
  throw notFound(query, suggestCompounds(text, index));
}

/** is_mixture for a mixture's name (air's saying which tools answer for it as a pseudo-pure fluid), else undefined. */
export function mixtureRefusal(text: string): ToolError | undefined {
  const air = findPseudoPure(text);
  return air
    ? mixtureError(
        text,
        ` As a pseudo-pure fluid, ${air.name} also answers in ${PSEUDO_PURE_TOOLS}. It has no vapour pressure or boiling point: it condenses between its dew and bubble points (service_eos_state says which phase at T and p).`,
        air.mixture,
      )
    : mixtureError(text);
}

/** compound_not_found for `query`: the suggestions, else what to try next. */
export function notFound(query: string, suggestions: string[]): ToolError {
  const text = query.trim();
  const hint =
    suggestions.length > 0
      ? ` Did you mean: ${suggestions.join(', ')}?`
      : ` Try service_search_compounds with query "${text}", or give a SMILES string or CAS number as compound_name.`;
  return new ToolError('compound_not_found', `No compound matches "${text}".${hint}`, { query, suggestions });
}

/** Canonical SMILES of each compound, computed once (compounds are frozen, so the answer cannot change). */
const canonicalOf = new WeakMap<Compound, string | null>();
/**
 * Canonical SMILES by SMILES, for the compounds the index held when it was first prepared (the
 * catalogue and ChemSep's): RDKit takes over a second for them, so they are kept between processes
 * (parsed-data-cache.ts; its key covers package.json, which fixes RDKit's version). A SMILES not here is
 * canonicalised when first indexed.
 */
let canonicalBySmiles: ReadonlyMap<string, string | null> | undefined;
/** Canonical SMILES → compounds, per index. */
const structureIndexes = new WeakMap<CompoundIndex, ReadonlyMap<string, readonly Compound[]>>();

/** Characters a SMILES string can hold; anything else (spaces, Chinese, commas) is not worth parsing. */
const SMILES_CHARACTERS = /^[A-Za-z0-9@+\-[\]()=#$:/\\.%*]+$/;

/**
 * `index`'s canonical-SMILES map, or undefined while RDKit is not loaded. A compound whose SMILES
 * RDKit cannot parse is left out (the RDKit data test reports it).
 */
function structureIndex(index: CompoundIndex): ReadonlyMap<string, readonly Compound[]> | undefined {
  if (!loadedRDKit()) return undefined;
  let map = structureIndexes.get(index);
  if (!map) {
    const built = new Map<string, Compound[]>();
    const compounds = [...index.bySmiles.values()];
    // Fallback compounds after the others, and only for a structure none of those has.
    for (const last of [false, true]) {
      for (const compound of compounds) {
        if (index.fallback.has(compound) !== last) continue;
        if (!canonicalOf.has(compound)) {
          const known = canonicalBySmiles?.get(compound.smiles);
          canonicalOf.set(compound, known !== undefined ? known : (canonicalSmiles(compound.smiles) ?? null));
        }
        const canonical = canonicalOf.get(compound);
        if (!canonical || (last && built.has(canonical))) continue;
        built.set(canonical, [...(built.get(canonical) ?? []), compound]);
      }
    }
    map = built;
    structureIndexes.set(index, map);
  }
  return map;
}

/** True when `text` could be a SMILES string, so findCompound may try it as a structure. */
export function mayBeSmiles(text: string): boolean {
  return SMILES_CHARACTERS.test(text);
}

/**
 * The compounds whose structure `smiles` describes (same RDKit canonical SMILES); none when it is
 * not a SMILES string, or while RDKit is not loaded (see prepareCompoundIndex).
 */
export function findByStructure(smiles: string, index: CompoundIndex = defaultIndex()): readonly Compound[] {
  const text = smiles.trim();
  if (!mayBeSmiles(text)) return [];
  return structureIndex(index)?.get(canonicalSmiles(text) ?? '') ?? [];
}

/**
 * Loads RDKit and computes the canonical SMILES of every compound in `index` (the default index:
 * built-in plus registered compounds), so that findCompound matches any SMILES of a compound.
 * Idempotent and cheap after the first call.
 */
export async function prepareCompoundIndex(index: CompoundIndex = defaultIndex()): Promise<CompoundIndex> {
  await loadRDKit();
  // Once per process: tools call this before every lookup, and the cache's key hashes ChemSep's file.
  canonicalBySmiles ??= cachedParse('canonical-smiles', [chemsepFile()], () => {
    const smiles = [...index.bySmiles.values()].map((compound) => compound.smiles);
    return new Map(smiles.map((s) => [s, canonicalSmiles(s) ?? null]));
  });
  structureIndex(index);
  return index;
}

/**
 * Up to `limit` compound names closest to `query`: edit distance at most a third of the query
 * length (at least 1) over names, synonyms and formulas, then names that merely contain the query.
 */
export function suggestCompounds(query: string, index: CompoundIndex = defaultIndex(), limit = 5): string[] {
  const key = normalizeKey(query);
  if (key === '') return [];
  const limitDistance = Math.max(1, Math.floor(Array.from(key).length / 3));
  const best = new Map<Compound, number>();
  for (const term of index.terms) {
    let score = editDistance(key, term.key, limitDistance);
    if (score > limitDistance && key.length >= 3 && term.key.includes(key)) score = limitDistance + 0.5;
    if (score <= limitDistance + 0.5 && score < (best.get(term.compound) ?? Infinity)) best.set(term.compound, score);
  }
  return [...best]
    .sort(([a, sa], [b, sb]) => sa - sb || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map(([compound]) => compound.name);
}
