/**
 * Compounds from outside the built-in data files: a user's imports (ChemSep XML, CSV), stored in the
 * database as JSON and handed back at start-up. Three jobs:
 * - checkCompound: a compound in its JSON form must have the shape the tools serve (known property
 *   keys in their units, each value with a source, valid correlations), or it is refused;
 * - CompoundIdentifiers: which names, synonyms, CAS numbers, InChIKeys and SMILES are taken, and by
 *   whom, so an import can report what each record collides with;
 * - registerCompounds: hands the imported compounds to the lookup index, never letting one take an
 *   identifier of a built-in compound (built-in data wins) unless the import recorded it as a
 *   deliberate override of that built-in (`--replace`), which is then served in its place.
 */
import { isValidCas } from '../chem/cas.ts';
import { allCompounds, assembleCompound, COMPOUND_FIELDS, type Compound } from '../chem/compounds.ts';
import { readCorrelations } from '../chem/correlations.ts';
import { hillFormula, parseFormula } from '../chem/formula.ts';
import { deepFreeze, type Fail, isRecord, stringList } from '../chem/json-checks.ts';
import { buildCompoundIndex, normalizeKey } from '../chem/lookup.ts';
import { PROPERTY_KEYS, type PropertyKey, type PropertyValue, readPropertyValue } from '../chem/properties.ts';
import { setRegisteredCompounds } from '../chem/registered-compounds.ts';

export const INCHIKEY_PATTERN = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;

/**
 * A compound in its JSON form (as the database stores it), checked and frozen. Unlike the data
 * files, sources are full citations, and molecular_weight is stored with the rest. Throws an Error
 * naming the first defect.
 */
export function checkCompound(raw: unknown): Compound {
  const fail: Fail = (message) => {
    throw new Error(`${isRecord(raw) && typeof raw.name === 'string' ? raw.name : 'compound'}: ${message}`);
  };
  if (!isRecord(raw)) return fail('not an object');
  for (const key of Object.keys(raw)) if (!COMPOUND_FIELDS.has(key)) fail(`unknown field "${key}"`);
  for (const key of ['name', 'cas', 'formula', 'smiles'] as const) {
    if (typeof raw[key] !== 'string' || raw[key].trim() === '') fail(`"${key}" must be a non-empty string`);
  }
  if (!isValidCas(raw.cas as string)) fail(`CAS number ${raw.cas} is not valid (format or check digit)`);
  const counts = parseFormula(raw.formula as string);
  if (!counts || hillFormula(counts) !== raw.formula) fail(`formula ${raw.formula} is not a formula in Hill order`);
  if (raw.inchikey !== undefined && !(typeof raw.inchikey === 'string' && INCHIKEY_PATTERN.test(raw.inchikey)))
    fail('"inchikey" must be a standard InChIKey');
  const synonyms = stringList(raw.synonyms) ?? fail('"synonyms" must be an array of non-empty strings');
  const notes =
    raw.notes === undefined
      ? undefined
      : (stringList(raw.notes) ?? fail('"notes" must be an array of non-empty strings'));

  if (!isRecord(raw.properties)) return fail('"properties" must be an object');
  const properties: Partial<Record<PropertyKey, PropertyValue>> = {};
  for (const [key, value] of Object.entries(raw.properties)) {
    if (!(PROPERTY_KEYS as string[]).includes(key)) fail(`unknown property "${key}"`);
    const failHere = (m: string) => fail(`${key}: ${m}`);
    const resolve = (source: unknown) =>
      isCitation(source) ? source : failHere('source must be a non-empty citation');
    properties[key as PropertyKey] = readPropertyValue(value, key as PropertyKey, resolve, failHere);
  }
  if (!properties.molecular_weight) fail('molecular_weight is missing');
  const correlations =
    raw.correlations === undefined
      ? undefined
      : readCorrelations(
          raw.correlations,
          (source) => (isCitation(source) ? source : fail('correlations: every source must be a citation')),
          (m) => fail(`correlations: ${m}`),
        );

  return deepFreeze(assembleCompound(raw, { synonyms, notes, properties, correlations }));
}

// ─── Identifiers ─────────────────────────────────────────────────────────────

type IdentifierKind = 'name' | 'synonym' | 'cas' | 'inchikey' | 'smiles';

/** What a compound is known by; enough of a Compound to check it for collisions. */
export type Identified = Pick<Compound, 'name' | 'cas' | 'smiles' | 'synonyms' | 'inchikey'>;

interface Clash<Owner> {
  /** The identifier of the compound being checked… */
  kind: IdentifierKind;
  value: string;
  /** …and the compound already holding it, with its identifier of the same key. */
  owner: Owner;
  ownerKind: IdentifierKind;
  ownerValue: string;
}

interface Holding<Owner> {
  owner: Owner;
  kind: IdentifierKind;
  value: string;
}

function identifiers(compound: Identified): { kind: IdentifierKind; value: string }[] {
  return [
    { kind: 'name', value: compound.name },
    ...compound.synonyms.map((value) => ({ kind: 'synonym' as const, value })),
    { kind: 'cas', value: compound.cas },
    ...(compound.inchikey ? [{ kind: 'inchikey' as const, value: compound.inchikey }] : []),
    { kind: 'smiles', value: compound.smiles },
  ];
}

/**
 * The identifiers taken so far, keyed as the lookup index keys them: names, synonyms, CAS numbers and
 * InChIKeys share one namespace after normalisation (case, spacing, hyphens and primes ignored), so a
 * synonym that equals another compound's CAS number collides; SMILES are compared as written.
 */
export class CompoundIdentifiers<Owner> {
  readonly #keys = new Map<string, Holding<Owner>>();
  readonly #held = new Map<Owner, string[]>();

  #key(kind: IdentifierKind, value: string): string {
    return kind === 'smiles' ? `smiles ${value}` : `key ${normalizeKey(value)}`;
  }

  /** The identifiers of `compound` that another owner holds, one entry per identifier. */
  clashes(compound: Identified): Clash<Owner>[] {
    const found: Clash<Owner>[] = [];
    const seen = new Set<string>();
    for (const { kind, value } of identifiers(compound)) {
      const key = this.#key(kind, value);
      const holding = this.#keys.get(key);
      if (!holding || seen.has(key)) continue;
      seen.add(key);
      found.push({ kind, value, owner: holding.owner, ownerKind: holding.kind, ownerValue: holding.value });
    }
    return found;
  }

  /** Takes the identifiers of `compound` for `owner` (first holder of a key keeps it). */
  add(compound: Identified, owner: Owner): void {
    const keys = this.#held.get(owner) ?? [];
    for (const { kind, value } of identifiers(compound)) {
      const key = this.#key(kind, value);
      if (this.#keys.has(key)) continue;
      this.#keys.set(key, { owner, kind, value });
      keys.push(key);
    }
    this.#held.set(owner, keys);
  }

  /** Frees every identifier `owner` holds. */
  remove(owner: Owner): void {
    for (const key of this.#held.get(owner) ?? []) this.#keys.delete(key);
    this.#held.delete(owner);
  }
}

/** "synonym "Marsh gas" is the name of methane": one clash in words; `label` names the owner. */
export function describeClash<Owner>(clash: Clash<Owner>, label: (owner: Owner) => string): string {
  const same = clash.value === clash.ownerValue;
  const theirs = same ? `the ${clash.ownerKind}` : `the ${clash.ownerKind} ${JSON.stringify(clash.ownerValue)}`;
  return `${clash.kind} ${JSON.stringify(clash.value)} is ${theirs} of ${label(clash.owner)}`;
}

// ─── Registration ────────────────────────────────────────────────────────────

/** A built-in compound an imported one overrides, as the import recorded it. */
export interface BuiltinRef {
  name: string;
  cas: string;
}

interface Registration {
  registered: readonly Compound[];
  /** Compounds left out, each with why: an identifier a built-in (or an earlier one) holds. */
  refused: { compound: Compound; reason: string }[];
  /** Built-in compounds no longer served, each with the registered compound served in its place. */
  overridden: { builtin: Compound; by: Compound }[];
}

interface RegisterOptions {
  builtins?: readonly Compound[];
  /**
   * The compounds imported with `--replace` over built-in data, each with the built-ins it overrides
   * (by name or CAS number). Only these may take identifiers of those built-ins.
   */
  overrides?: ReadonlyMap<Compound, readonly BuiltinRef[]>;
}

/**
 * Makes `compounds` (checked with checkCompound) findable by the tools beside the built-in data,
 * replacing any earlier registration. A compound that takes an identifier of a built-in compound or
 * of one registered before it is refused: the built-in data may since have gained the compound an
 * operator imported earlier. The exception is a deliberate override (`options.overrides`): a
 * compound may take the identifiers of the built-ins recorded as overridden by it (matched by name
 * or CAS number, each built-in overridden once); those built-ins are then not served, and their
 * remaining identifiers resolve to the override.
 */
export function registerCompounds(compounds: readonly Compound[], options: RegisterOptions = {}): Registration {
  const builtins = options.builtins ?? allCompounds();
  const taken = new CompoundIdentifiers<Compound>();
  const builtinSet = new Set(builtins);
  for (const compound of builtins) taken.add(compound, compound);
  const accepted: Compound[] = [];
  const refused: Registration['refused'] = [];
  const overriddenBy = new Map<Compound, Compound>();
  const label = (owner: Compound) => `${builtinSet.has(owner) ? 'built-in' : 'imported'} ${owner.name}`;
  for (const compound of compounds) {
    const refs = options.overrides?.get(compound) ?? [];
    const allowed = (owner: Compound) =>
      builtinSet.has(owner) &&
      !overriddenBy.has(owner) &&
      refs.some((r) => r.name === owner.name || r.cas === owner.cas);
    const clashes = taken.clashes(compound);
    const blocking = clashes.filter((c) => !allowed(c.owner));
    if (blocking.length > 0) {
      refused.push({ compound, reason: blocking.map((c) => describeClash(c, label)).join('; ') });
      continue;
    }
    const overridden = [...new Set(clashes.map((c) => c.owner))];
    for (const builtin of overridden) taken.remove(builtin);
    taken.add(compound, compound);
    // The overridden built-in keeps its other identifiers, so no later compound can take them.
    for (const builtin of overridden) {
      taken.add(builtin, builtin);
      overriddenBy.set(builtin, compound);
    }
    accepted.push(compound);
  }
  const served = () => builtins.filter((b) => !overriddenBy.has(b));
  const registered = indexable(served(), accepted, refused);
  for (const [builtin, by] of overriddenBy) if (!registered.includes(by)) overriddenBy.delete(builtin);
  if (registered.length !== accepted.length) {
    // An override the index refused leaves its built-in served again; check the rest still fit.
    const kept = indexable(served(), registered, refused);
    registered.splice(0, registered.length, ...kept);
  }
  setRegisteredCompounds(registered, new Map([...overriddenBy].map(([builtin, by]) => [builtin.name, by])));
  return { registered, refused, overridden: [...overriddenBy].map(([builtin, by]) => ({ builtin, by })) };
}

/**
 * The index is the final judge of what can be served together; normally it accepts everything the
 * identifier check let through. Should it not, the compounds are added one at a time and each one it
 * refuses is reported, so one bad record cannot take the lookup down.
 */
function indexable(builtins: readonly Compound[], accepted: Compound[], refused: Registration['refused']): Compound[] {
  try {
    buildCompoundIndex([...builtins, ...accepted]);
    return accepted;
  } catch {
    const kept: Compound[] = [];
    for (const compound of accepted) {
      try {
        buildCompoundIndex([...builtins, ...kept, compound]);
        kept.push(compound);
      } catch (error) {
        refused.push({ compound, reason: (error as Error).message });
      }
    }
    return kept;
  }
}

// ─── Helpers ─────────────────────────────────────────────────────────────────

function isCitation(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
