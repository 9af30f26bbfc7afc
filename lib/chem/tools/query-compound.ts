/**
 * service_query_compound: identifiers and physical constants of one pure compound, every value with
 * its unit and literature source. The public contract is the name, the one argument and the
 * outputSchema below; the data behind it is ../data (see ../compounds.ts).
 */
import type { Compound } from '../compounds.ts';
import { CORRELATION_FORMS, type Correlations } from '../correlations.ts';
import { findInTable, isNotFound } from '../find-structure.ts';
import { findCompound, type MatchKind } from '../lookup.ts';
import {
  PROPERTY_DEFINITIONS,
  PROPERTY_KEYS,
  type PropertyKey,
  type PropertyValue,
  TEMPERATURE_DEPENDENT,
} from '../properties.ts';
import type { ChemTool, JsonSchema } from '../tool.ts';
import { COMPOUND_NAME_ARGUMENT } from './computed-value.ts';
import { estimatedCompound } from './estimated-compound.ts';
import { vaporizationProperties } from './vaporization-properties.ts';

export interface QueryCompoundArgs {
  compound_name: string;
}

export interface QueryCompoundResult {
  name: string;
  cas: string;
  formula: string;
  smiles: string;
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

function propertyValueSchema(key: PropertyKey): JsonSchema {
  const { unit, description } = PROPERTY_DEFINITIONS[key];
  return {
    type: 'object',
    description: `${description} Unit: ${unit === '' ? 'dimensionless' : unit}.`,
    properties: {
      value: { type: 'number' },
      unit: { type: 'string', const: unit },
      source: {
        type: 'string',
        minLength: 1,
        description: 'Published source of the value (or of the inputs it is computed from).',
      },
      method: {
        type: 'string',
        description: 'How the value was obtained when it is computed rather than read from the source.',
      },
      note: {
        type: 'string',
        description: 'What the value is when its name alone would mislead (e.g. a triple point).',
      },
      warnings: { type: 'array', items: { type: 'string' }, description: 'Caveats for using the value.' },
      estimated: {
        type: 'boolean',
        const: true,
        description: 'Present (true) when the value is a group-contribution estimate, not a measurement.',
      },
      ...(TEMPERATURE_DEPENDENT.has(key)
        ? {
            temperature: {
              type: 'object',
              description: 'The temperature the value holds at.',
              properties: { value: { type: 'number' }, unit: { type: 'string', const: 'K' } },
              required: ['value', 'unit'],
              additionalProperties: false,
            },
          }
        : {}),
    },
    required: TEMPERATURE_DEPENDENT.has(key) ? ['value', 'unit', 'source', 'temperature'] : ['value', 'unit', 'source'],
    additionalProperties: false,
  };
}

function correlationsSchema(): JsonSchema {
  const range = {
    type: 'object',
    properties: { min: { type: 'number' }, max: { type: 'number' }, unit: { type: 'string', const: 'K' } },
    required: ['min', 'max', 'unit'],
    additionalProperties: false,
  };
  const numbers = (names: string[]) => ({
    type: 'object',
    properties: Object.fromEntries(names.map((n) => [n, { type: 'number' }])),
    required: names,
    additionalProperties: false,
  });
  return {
    type: 'object',
    description: 'Temperature-dependent equations on record, each with its exact form, valid range and source.',
    properties: {
      vapor_pressure: {
        type: 'array',
        description: `Vapour-pressure equations, most accurate first. antoine: ${CORRELATION_FORMS.antoine}; wagner_25_5: ${CORRELATION_FORMS.wagner_25_5} (with its own Tc in K and Pc in bar).`,
        items: {
          oneOf: [
            {
              type: 'object',
              properties: {
                equation: { const: 'antoine' },
                coefficients: numbers(['A', 'B', 'C']),
                valid_range: range,
                source: { type: 'string' },
              },
              required: ['equation', 'coefficients', 'valid_range', 'source'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: {
                equation: { const: 'wagner_25_5' },
                coefficients: numbers(['a', 'b', 'c', 'd']),
                critical_temperature: { type: 'number' },
                critical_pressure: { type: 'number' },
                valid_range: range,
                source: { type: 'string' },
              },
              required: [
                'equation',
                'coefficients',
                'critical_temperature',
                'critical_pressure',
                'valid_range',
                'source',
              ],
              additionalProperties: false,
            },
          ],
        },
      },
      ideal_gas_cp: {
        type: 'object',
        description: `Ideal-gas heat capacity: ${CORRELATION_FORMS.cp_poly4}.`,
        properties: {
          equation: { const: 'cp_poly4' },
          coefficients: { type: 'array', items: { type: 'number' }, minItems: 5, maxItems: 5 },
          valid_range: range,
          source: { type: 'string' },
        },
        required: ['equation', 'coefficients', 'valid_range', 'source'],
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Preferred English name.' },
    cas: { type: 'string', pattern: '^[0-9]{2,7}-[0-9]{2}-[0-9]$', description: 'CAS Registry Number.' },
    formula: { type: 'string', description: 'Molecular formula in Hill order.' },
    smiles: { type: 'string', description: 'SMILES string.' },
    inchikey: {
      type: 'string',
      pattern: '^[A-Z]{14}-[A-Z]{10}-[A-Z]$',
      description: 'Standard InChIKey (omitted when not on record).',
    },
    pubchem_cid: {
      type: 'integer',
      minimum: 1,
      description: 'PubChem compound id (only for a compound outside the measured catalogue).',
    },
    synonyms: {
      type: 'array',
      items: { type: 'string' },
      description: 'Other names: IUPAC, common, trade, abbreviations, Simplified Chinese.',
    },
    notes: {
      type: 'array',
      items: { type: 'string' },
      description: 'Facts about the compound that qualify its properties.',
    },
    match: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'compound_name as given.' },
        by: { type: 'string', enum: MATCH_KINDS, description: 'What the query matched.' },
      },
      required: ['query', 'by'],
      additionalProperties: false,
    },
    properties: {
      type: 'object',
      description:
        'Properties on record, each {value, unit, source} plus method, note, warnings where they apply. Unknown properties are omitted.',
      properties: Object.fromEntries(PROPERTY_KEYS.map((key) => [key, propertyValueSchema(key)])),
      required: ['molecular_weight'],
      additionalProperties: false,
    },
    correlations: correlationsSchema(),
  },
  required: ['name', 'cas', 'formula', 'smiles', 'synonyms', 'match', 'properties'],
  additionalProperties: false,
};

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

export const queryCompoundTool = {
  name: 'service_query_compound',
  title: 'Query compound properties',
  description: [
    'Look up one pure compound and return its identifiers and physical constants, each value with its unit and literature source.',
    'compound_name accepts an English name or synonym ("ethanol", "ethyl alcohol", "EtOH", "n-butane", "isobutane"), a Simplified Chinese name ("乙醇", "二氧化碳"), a CAS number ("64-17-5"), a molecular formula that only one compound has ("CO2", "NH3", "C2H5OH"), a SMILES string ("CCO") or an InChIKey; case, spaces, hyphens and primes are ignored.',
    'Returns name, cas, formula (Hill order), smiles, inchikey, synonyms, notes, match (how the query was read) and properties:',
    'molecular_weight (g/mol), critical_temperature (K), critical_pressure (bar), critical_volume (cm3/mol), critical_compressibility and acentric_factor (dimensionless), normal_boiling_point (K), melting_point (K);',
    'substances that sublime at 1 atm (CO2, acetylene) have sublimation_point (K) instead of normal_boiling_point, and their melting_point is the triple point, as its note says;',
    "enthalpy_of_vaporization_at_boiling_point and enthalpy_of_vaporization_298k (kJ/mol), liquid_heat_capacity_at_boiling_point and liquid_heat_capacity_298k (J/(mol·K)), each with its temperature, from ChemSep 8.32's DIPPR fits where they hold there.",
    'Each property is {value, unit, source} plus method, note or warnings where they apply. For a catalogue compound, a property not on record is omitted, never estimated.',
    'The 168 compounds ChemSep 8.32 lists beyond the catalogue ("pyrene", "trichloroacetyl chloride") answer from its data, cited as such.',
    'A compound outside the measured catalogue (e.g. "caffeine", "ibuprofen", "50-78-2") is looked up in a PubChem-derived name table of about 5,000 compounds: the answer then has pubchem_cid, a note saying so, molecular_weight from the formula, and Joback–Reid group-contribution estimates of normal_boiling_point, melting_point, critical_temperature, critical_pressure, critical_volume, enthalpy_of_formation_gas and gibbs_energy_of_formation_gas, each marked "estimated": true with its method and typical error.',
    'An unknown compound is an error whose message suggests close names; a formula shared by isomers is an error listing them.',
  ].join(' '),
  inputSchema,
  outputSchema,
  run({ compound_name }) {
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
} satisfies ChemTool<QueryCompoundArgs, QueryCompoundResult>;
