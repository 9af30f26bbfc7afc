/**
 * The built-in compound data: JSON files under data/compounds (one per family) with literature
 * citations in data/sources.json. Loaded once, checked for shape (a malformed file fails at startup,
 * not on some later query), and frozen, because lookups hand out shared objects.
 *
 * In the files every value names a source id; here it becomes the full citation. Molecular weight
 * is not stored: it is computed from the formula with IUPAC 2021 atomic weights, so it can never
 * disagree with the formula.
 */
import { ATOMIC_WEIGHTS_SOURCE } from './atomic-weights.ts';
import { type Correlations, readCorrelations } from './correlations.ts';
import acidsEsters from './data/compounds/acids-esters.json' with { type: 'json' };
import alcoholsGlycols from './data/compounds/alcohols-glycols.json' with { type: 'json' };
import carbonyls from './data/compounds/carbonyls.json' with { type: 'json' };
import ethers from './data/compounds/ethers.json' with { type: 'json' };
import halocarbons from './data/compounds/halocarbons.json' with { type: 'json' };
import hydrocarbons from './data/compounds/hydrocarbons.json' with { type: 'json' };
import inorganic from './data/compounds/inorganic.json' with { type: 'json' };
import nitrogenSulfur from './data/compounds/nitrogen-sulfur.json' with { type: 'json' };
import refrigerants from './data/compounds/refrigerants.json' with { type: 'json' };
import sources from './data/sources.json' with { type: 'json' };
import { type ElementCounts, molarMass, parseFormula } from './formula.ts';
import { deepFreeze, isRecord, stringList } from './json-checks.ts';
import {
  PROPERTY_DEFINITIONS,
  PROPERTY_KEYS,
  type PropertyKey,
  type PropertyValue,
  readPropertyValue,
} from './properties.ts';

export interface Compound {
  name: string;
  cas: string;
  /** Hill formula. */
  formula: string;
  smiles: string;
  /** Standard InChIKey; absent unless it is certain. */
  inchikey?: string;
  /** IUPAC, common and trade names, abbreviations, Simplified Chinese names. */
  synonyms: readonly string[];
  /** Facts about the compound as a whole that a reader of its properties must know. */
  notes?: readonly string[];
  /** Unknown properties are absent, never estimated. */
  properties: Readonly<Partial<Record<PropertyKey, Readonly<PropertyValue>>>>;
  /** Vapour-pressure and ideal-gas heat-capacity equations, where on record. */
  correlations?: Readonly<Correlations>;
}

/** Every compound's molecular weight, built-in or imported: computed from its formula, never stored. */
export function molecularWeightValue(counts: ElementCounts): PropertyValue {
  return {
    value: Math.round(molarMass(counts) * 1000) / 1000,
    unit: PROPERTY_DEFINITIONS.molecular_weight.unit,
    source: ATOMIC_WEIGHTS_SOURCE,
    method: 'sum of IUPAC 2021 standard atomic weights over the formula',
  };
}

const DATA_FILES: Record<string, unknown> = {
  'inorganic.json': inorganic,
  'hydrocarbons.json': hydrocarbons,
  'alcohols-glycols.json': alcoholsGlycols,
  'carbonyls.json': carbonyls,
  'acids-esters.json': acidsEsters,
  'ethers.json': ethers,
  'halocarbons.json': halocarbons,
  'refrigerants.json': refrigerants,
  'nitrogen-sulfur.json': nitrogenSulfur,
};

let loaded: readonly Compound[] | undefined;

/** All built-in compounds, in file order. */
export function allCompounds(): readonly Compound[] {
  loaded ??= deepFreeze(loadCompounds(DATA_FILES, sources));
  return loaded;
}

/** Parses data files (name → parsed JSON) against a source table (id → citation). Throws on the first defect. */
export function loadCompounds(files: Record<string, unknown>, sourceTable: Record<string, string>): Compound[] {
  const compounds: Compound[] = [];
  for (const [file, content] of Object.entries(files)) {
    const list = isRecord(content) ? content.compounds : undefined;
    if (!Array.isArray(list)) throw new Error(`${file}: expected {"compounds": [...]}`);
    list.forEach((raw, i) => {
      compounds.push(readCompound(raw, `${file} compounds[${i}]`, sourceTable));
    });
  }
  return compounds;
}

/** The fields a compound's JSON form may have, in the data files and in the database alike. */
export const COMPOUND_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'cas',
  'formula',
  'smiles',
  'inchikey',
  'synonyms',
  'notes',
  'properties',
  'correlations',
]);

function readCompound(raw: unknown, where: string, sourceTable: Record<string, string>): Compound {
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  const fail = (message: string): never => {
    throw new Error(`${where} (${String(raw.name)}): ${message}`);
  };
  for (const key of Object.keys(raw)) if (!COMPOUND_FIELDS.has(key)) fail(`unknown field "${key}"`);
  for (const key of ['name', 'cas', 'formula', 'smiles'] as const) {
    if (typeof raw[key] !== 'string' || raw[key].trim() === '') fail(`"${key}" must be a non-empty string`);
  }
  if (raw.inchikey !== undefined && typeof raw.inchikey !== 'string') fail('"inchikey" must be a string');
  const synonyms = stringList(raw.synonyms) ?? fail('"synonyms" must be an array of strings');
  const notes =
    raw.notes === undefined ? undefined : (stringList(raw.notes) ?? fail('"notes" must be an array of strings'));

  const counts = parseFormula(raw.formula as string) ?? fail(`formula "${raw.formula}" does not parse`);
  if (!isRecord(raw.properties)) fail('"properties" must be an object');
  const given = raw.properties as Record<string, unknown>;
  if ('molecular_weight' in given) fail('molecular_weight is computed from the formula; do not store it');

  const properties: Partial<Record<PropertyKey, PropertyValue>> = { molecular_weight: molecularWeightValue(counts) };
  for (const [key, value] of Object.entries(given)) {
    if (!(PROPERTY_KEYS as string[]).includes(key)) fail(`unknown property "${key}"`);
    const failHere = (m: string) => fail(`${key}: ${m}`);
    const resolve = (id: unknown) =>
      citation(id, sourceTable) ?? failHere(`unknown source ${JSON.stringify(id)} (add it to data/sources.json)`);
    properties[key as PropertyKey] = readPropertyValue(value, key as PropertyKey, resolve, failHere);
  }
  const correlations =
    raw.correlations === undefined
      ? undefined
      : readCorrelations(
          raw.correlations,
          (id) =>
            citation(id, sourceTable) ??
            fail(`correlations: unknown source ${JSON.stringify(id)} (add it to data/sources.json)`),
          (m) => fail(`correlations: ${m}`),
        );

  return assembleCompound(raw, { synonyms, notes, properties, correlations });
}

/** A compound from a checked record and its checked parts: properties in catalogue order, absent parts left out. */
export function assembleCompound(
  raw: Record<string, unknown>,
  parts: {
    synonyms: string[];
    notes?: string[];
    properties: Partial<Record<PropertyKey, PropertyValue>>;
    correlations?: Correlations;
  },
): Compound {
  return {
    name: raw.name as string,
    cas: raw.cas as string,
    formula: raw.formula as string,
    smiles: raw.smiles as string,
    ...(raw.inchikey === undefined ? {} : { inchikey: raw.inchikey as string }),
    synonyms: parts.synonyms,
    ...(parts.notes === undefined ? {} : { notes: parts.notes }),
    properties: Object.fromEntries(
      PROPERTY_KEYS.filter((k) => k in parts.properties).map((k) => [k, parts.properties[k]]),
    ),
    ...(parts.correlations === undefined ? {} : { correlations: parts.correlations }),
  };
}

function citation(id: unknown, sourceTable: Record<string, string>): string | undefined {
  return typeof id === 'string' && Object.hasOwn(sourceTable, id) ? sourceTable[id] : undefined;
}
