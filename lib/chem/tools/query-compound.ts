/**
 * service_query_compound: identifiers and physical constants of one pure compound, every value with
 * its unit and literature source. The public contract is the name, the one argument and the
 * outputSchema below; the data behind it is ../data (see ../compounds.ts).
 */
import type { Compound } from '../compounds.ts';
import { CORRELATION_FORMS, type Correlations } from '../correlations.ts';
import { findInTable, isNotFound } from '../find-structure.ts';
import { findCompound, type MatchKind, normalizeKey } from '../lookup.ts';
import { PROPERTY_DEFINITIONS, PROPERTY_KEYS, type PropertyKey, type PropertyValue } from '../properties.ts';
import { findPseudoPure, type PseudoPureComponent, type PseudoPureFluid } from '../pseudo-pure.ts';
import { defineTool, type JsonSchema } from '../tool.ts';
import { answerSchema, NUMBER, objectOf, QUANTITY, RANGE, STRING, STRINGS } from './answer-schema.ts';
import { COMPOUND_NAME_ARGUMENT } from './computed-value.ts';
import { estimatedCompound } from './estimated-compound.ts';
import { vaporizationProperties } from './vaporization-properties.ts';

interface QueryCompoundArgs {
  compound_name: string;
}

export interface QueryCompoundResult {
  name: string;
  cas: string;
  /** Absent for air, a mixture: it has `composition` instead. */
  formula?: string;
  smiles?: string;
  composition?: { components: readonly PseudoPureComponent[]; source: string };
  inchikey?: string;
  /** PubChem compound id: only for a compound answered from the name table. */
  pubchem_cid?: number;
  synonyms: string[];
  notes?: string[];
  /** How the query was understood, so a caller can see that "CO" was read as a formula. */
  match: { query: string; by: MatchKind };
  /** `estimated` only on group-contribution estimates for a compound outside the catalogue. */
  properties: Partial<Record<PropertyKey, PropertyValue & { estimated?: true }>>;
  correlations?: Correlations;
}

const MATCH_KINDS: MatchKind[] = ['name', 'synonym', 'cas', 'inchikey', 'formula', 'smiles'];

const EQUATION: JsonSchema = { $ref: '#/$defs/equation' };
const FITTED_EQUATION = objectOf({
  equation: { enum: Object.keys(CORRELATION_FORMS) },
  coefficients: {
    anyOf: [
      { type: 'object', additionalProperties: NUMBER },
      { type: 'array', items: NUMBER },
    ],
  },
  critical_temperature: NUMBER,
  critical_pressure: NUMBER,
  valid_range: RANGE,
  source: STRING,
});

const outputSchema = answerSchema(
  {
    name: STRING,
    cas: STRING,
    formula: STRING,
    smiles: STRING,
    // Air's {components: [{name, cas, mole_fraction}], source}: its type only, to keep tools/list small.
    composition: { type: 'object' },
    inchikey: STRING,
    pubchem_cid: { type: 'integer' },
    synonyms: STRINGS,
    notes: STRINGS,
    match: objectOf({ query: STRING, by: { enum: MATCH_KINDS } }),
    properties: {
      type: 'object',
      propertyNames: { enum: PROPERTY_KEYS },
      properties: { molecular_weight: QUANTITY },
      additionalProperties: QUANTITY,
      required: ['molecular_weight'],
    },
    correlations: {
      type: 'object',
      description: `Equations on record. ${Object.entries(CORRELATION_FORMS)
        .map(([name, form]) => `${name}: ${form}`)
        .join('; ')}.`,
      properties: { vapor_pressure: { type: 'array', items: EQUATION }, ideal_gas_cp: EQUATION },
    },
  },
  ['formula', 'smiles', 'composition', 'inchikey', 'pubchem_cid', 'notes', 'correlations'],
  { equation: FITTED_EQUATION },
);

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_query_compoundArguments',
  properties: {
    compound_name: COMPOUND_NAME_ARGUMENT,
  },
  required: ['compound_name'],
  additionalProperties: false,
};

type CompoundPart = Omit<QueryCompoundResult, 'match'>;

/** Per compound, its part of every answer: copied and deep-frozen once, then shared by all answers. */
const compoundParts = new WeakMap<Compound, Readonly<CompoundPart>>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The compound's properties plus ΔHvap and liquid Cp from ChemSep's fits where its own data has none, in catalogue order. */
function withVaporizationProperties(compound: Compound): Partial<Record<PropertyKey, PropertyValue>> {
  const all: Partial<Record<PropertyKey, PropertyValue>> = {
    ...vaporizationProperties(compound),
    ...compound.properties,
  };
  return Object.fromEntries(PROPERTY_KEYS.filter((k) => k in all).map((k) => [k, all[k]]));
}

function compoundPart(compound: Compound): Readonly<CompoundPart> {
  let part = compoundParts.get(compound);
  if (!part) {
    part = deepFreeze(
      structuredClone({
        name: compound.name,
        cas: compound.cas,
        formula: compound.formula,
        smiles: compound.smiles,
        ...(compound.inchikey ? { inchikey: compound.inchikey } : {}),
        synonyms: [...compound.synonyms],
        ...(compound.notes ? { notes: [...compound.notes] } : {}),
        properties: withVaporizationProperties(compound),
        ...(compound.correlations ? { correlations: compound.correlations } : {}),
      }),
    );
    compoundParts.set(compound, part);
  }
  return part;
}

/**
 * The answer, in the contract's field order. Its compound data is the frozen shared part (no copy per
 * call: this is the hot path of the most used tool), so a caller that wants to edit a result copies it.
 */
function toResult(compound: Compound, query: string, by: MatchKind): QueryCompoundResult {
  const { properties, correlations, ...identity } = compoundPart(compound);
  return { ...identity, match: { query, by }, properties, ...(correlations ? { correlations } : {}) };
}

/** Air's answer: its composition, the equation's molar mass and critical point, and what answers for it. */
function pseudoPureResult(air: PseudoPureFluid, query: string): QueryCompoundResult {
  const { fluid } = air;
  const bounds = fluid.pseudoPure!;
  const key = normalizeKey(query);
  const by: MatchKind = key === normalizeKey(air.name) ? 'name' : key === normalizeKey(air.cas) ? 'cas' : 'synonym';
  const source = fluid.citation;
  return {
    name: air.name,
    cas: air.cas,
    composition: air.composition,
    synonyms: [...air.synonyms],
    notes: [
      `A mixture of fixed composition, described as a pseudo-pure fluid by the reference equation of state of Lemmon et al. (2000), ${fluid.tripleTemperature}–${fluid.maxTemperature} K up to ${fluid.maxPressure / 1e6} MPa: service_eos_state and service_ideal_gas_thermo answer for it. It has no formula, SMILES, vapour pressure or boiling point (it condenses between its dew and bubble points); for other properties pass its composition to service_mixture_properties.`,
    ],
    match: { query, by },
    properties: {
      molecular_weight: air.molecularWeight,
      critical_temperature: {
        value: fluid.critical.temperature,
        unit: 'K',
        source,
        note: `Where the bubble- and dew-point curves meet; the maxcondentherm, the highest temperature at which liquid and vapour coexist, is ${bounds.maxcondentherm.temperature} K.`,
      },
      critical_pressure: {
        value: fluid.critical.pressure / 1e5,
        unit: 'bar',
        source,
        note: `At the critical point; the maxcondenbar, the highest pressure at which liquid and vapour coexist, is ${bounds.maxcondenbar.pressure / 1e5} bar.`,
      },
    },
  };
}

export const queryCompoundTool = defineTool<QueryCompoundArgs, QueryCompoundResult | Promise<QueryCompoundResult>>({
  name: 'service_query_compound',
  title: 'Query compound properties',
  description: [
    'Identifiers and physical constants of one pure compound, found by name, synonym, Chinese name, CAS number, SMILES, InChIKey or a unique formula.',
    'Properties (each {value, unit, source, …}): molecular_weight (g/mol), critical_temperature (K), critical_pressure (bar), critical_volume (cm3/mol), acentric_factor, normal_boiling_point (K), melting_point (K), enthalpies of vaporization (kJ/mol), liquid heat capacities (J/(mol·K)) and more; not on record: omitted.',
    'Compounds outside the catalogue get estimates marked "estimated": true.',
  ].join(' '),
  details: [
    'compound_name accepts an English name or synonym ("ethanol", "ethyl alcohol", "EtOH", "n-butane", "isobutane"), a Simplified Chinese name ("乙醇", "二氧化碳"), a CAS number ("64-17-5"), a molecular formula that only one compound has ("CO2", "NH3", "C2H5OH"), a SMILES string ("CCO") or an InChIKey; case, spaces, hyphens and primes are ignored. `match` says how the query was read.',
    `Properties: ${PROPERTY_KEYS.map((key) => `\`${key}\` (${PROPERTY_DEFINITIONS[key].unit || 'dimensionless'}): ${PROPERTY_DEFINITIONS[key].description}`).join(' ')}`,
    "Substances that sublime at 1 atm (CO2, acetylene) have sublimation_point instead of normal_boiling_point, and their melting_point is the triple point, as its note says. Enthalpies of vaporization and liquid heat capacities come, each with its temperature, from the reference equation of state where there is one, else from ChemSep 8.32's DIPPR fits where they hold. For a catalogue compound, a property not on record is omitted, never estimated. `correlations` gives the vapour-pressure and ideal-gas heat-capacity equations on record with their forms, valid ranges and sources.",
    'The 168 compounds ChemSep 8.32 lists beyond the catalogue ("pyrene", "trichloroacetyl chloride") answer from its data, cited as such.',
    'A compound outside the measured catalogue (e.g. "caffeine", "ibuprofen", "50-78-2") is looked up in a PubChem-derived name table of 5,130 compounds: the answer then has pubchem_cid, a note saying so, molecular_weight from the formula, and Joback–Reid group-contribution estimates of normal_boiling_point, melting_point, critical_temperature, critical_pressure, critical_volume, enthalpy_of_formation_gas and gibbs_energy_of_formation_gas, each marked "estimated": true with its method and typical error.',
    'Names engineers use: "steam" and "water vapour" (or "vapor") are water. "air" (also "atmosphere", CAS 132259-10-0) answers as the pseudo-pure fluid of Lemmon et al. (2000): no formula or SMILES but its composition (N2, Ar, O2 mole fractions from the mixture table), the equation\'s molar mass (28.9586 g/mol), its critical point and maxcondentherm, and a note on which tools answer for it. Other mixture names (natural gas, the R-400/R-500 refrigerant blends such as "R-410A", gasoline, petrol, diesel, kerosene, jet fuel, LPG) are an error (is_mixture) that lists the composition on record, ready for service_mixture_properties, or says to pass the components.',
    'An unknown compound is an error (compound_not_found) whose message suggests close names, or, with none close, names service_search_compounds, a SMILES or a CAS number to try; a formula shared by isomers is an error (ambiguous_compound) listing them.',
  ],
  inputSchema,
  outputSchema,
  example: { compound_name: 'water' },
  run({ compound_name }) {
    const air = findPseudoPure(compound_name);
    if (air) return pseudoPureResult(air, compound_name);
    try {
      const { compound, by } = findCompound(compound_name);
      return toResult(compound, compound_name, by);
    } catch (error) {
      // Outside the catalogue: the name table, read on the first miss; a name it lacks throws here.
      if (!isNotFound(error)) throw error;
      const found = findInTable(compound_name, error);
      return found.compound
        ? toResult(found.compound, compound_name, found.matched_by)
        : estimatedCompound(compound_name, found);
    }
  },
});
