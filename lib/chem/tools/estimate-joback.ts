/**
 * service_estimate_joback: Joback–Reid group-contribution estimates for any organic molecule given
 * as SMILES: the groups found (RDKit SMARTS), then Tb, Tm, Tc, Pc, Vc, ΔHf°, ΔGf°, ΔHvap(Tb), ΔHfus and
 * the ideal-gas Cp° polynomial, each with its relation and Joback's reported average error.
 * The science is ../joback.ts.
 */
import {
  fragmentJoback,
  JOBACK_CP_RANGE,
  JOBACK_GROUPS,
  JOBACK_METHOD,
  JOBACK_SOURCE,
  type JobackEstimates,
  type JobackFragmentation,
  type JobackGroupCounts,
  type JobackProperty,
  jobackEstimate,
  jobackHeatCapacity,
} from '../joback.ts';
import { roundTo, toMethodPrecision } from '../precision.ts';
import { MAX_SMILES_LENGTH } from '../rdkit.ts';
import { defineTool, type JsonSchema } from '../tool.ts';
import { answerSchema, NUMBER, objectOf, QUANTITY, RANGE, STRING, WARNINGS } from './answer-schema.ts';
import {
  defaultUnitWarning,
  readTemperature,
  TEMPERATURE_UNIT_ALIASES,
  TEMPERATURE_UNIT_ARGUMENT,
  withUnitTrap,
} from './computed-value.ts';
import {
  NAMED_COMPOUND_SCHEMA,
  type NamedCompound,
  STRUCTURE_NAME_ARGUMENT,
  STRUCTURE_NAME_DETAILS,
  structureFrom,
} from './structure-argument.ts';

interface EstimateJobackArgs {
  smiles?: string;
  compound_name?: string;
  boiling_point?: number;
  temperature_unit?: string;
}

/** One estimate: `method` is its relation (the answer's top-level method names Joback–Reid). */
interface Estimate {
  value: number;
  unit: string;
  method: string;
  source: string;
  /** The average absolute error Joback reported (for Tc, first the Tb it used). */
  note: string;
  warnings?: string[];
}

interface HeatCapacityEstimate {
  equation: string;
  /** Units follow from `equation`: J/(mol·K), J/(mol·K²), J/(mol·K³), J/(mol·K⁴). */
  coefficients: { a: number; b: number; c: number; d: number };
  value_at_298_15_K: { value: number; unit: string };
  valid_range: { min: number; max: number; unit: 'K' };
  method: string;
  source: string;
}

type ScalarProperty = Exclude<JobackProperty, 'ideal_gas_heat_capacity'>;

interface EstimateJobackResult {
  smiles: string;
  compound?: NamedCompound;
  canonical_smiles: string;
  formula?: string;
  groups: { group: string; count: number; atoms: number[] }[];
  atom_count: number;
  method: string;
  source: string;
  estimates: Partial<Record<ScalarProperty, Estimate>> & { ideal_gas_heat_capacity?: HeatCapacityEstimate };
  unavailable: { property: JobackProperty; reason: string }[];
  warnings: string[];
}

/**
 * Each property: unit, the relation that gives it (../joback.ts; ΣN·x sums group value x over the groups,
 * nA is atom_count), and the accuracy Joback reported for it (K. G. Joback, thesis, MIT, 1984, summarised
 * in Joback & Reid 1987): average absolute error, over `tested` compounds.
 */
const PROPERTIES: Record<ScalarProperty, { unit: string; relation: string; error: string; tested: number }> = {
  normal_boiling_point: { unit: 'K', relation: 'Tb = 198.2 + ΣN·tb', error: '12.9 K (3.6 %)', tested: 438 },
  melting_point: { unit: 'K', relation: 'Tm = 122.5 + ΣN·tm', error: '22.6 K (11.2 %)', tested: 388 },
  critical_temperature: {
    unit: 'K',
    relation: 'Tc = Tb/(0.584 + 0.965·ΣN·tc − (ΣN·tc)²)',
    error: '4.8 K (0.8 %) with measured Tb',
    tested: 409,
  },
  critical_pressure: {
    unit: 'bar',
    relation: 'Pc = (0.113 + 0.0032·nA − ΣN·pc)⁻²',
    error: '2.1 bar (5.2 %)',
    tested: 392,
  },
  critical_volume: { unit: 'cm3/mol', relation: 'Vc = 17.5 + ΣN·vc', error: '7.5 cm3/mol (2.3 %)', tested: 310 },
  enthalpy_of_formation_gas: {
    unit: 'kJ/mol',
    relation: 'ΔHf°(ideal gas, 298.15 K) = 68.29 + ΣN·hf',
    error: '9.2 kJ/mol (2.2 kcal/mol)',
    tested: 370,
  },
  gibbs_energy_of_formation_gas: {
    unit: 'kJ/mol',
    relation: 'ΔGf°(ideal gas, 298.15 K) = 53.88 + ΣN·gf',
    error: '8.4 kJ/mol (2.0 kcal/mol)',
    tested: 328,
  },
  enthalpy_of_vaporization: {
    unit: 'kJ/mol',
    relation: 'ΔHvap(Tb) = 15.30 + ΣN·hvap',
    error: '1.3 kJ/mol (3.9 %)',
    tested: 368,
  },
  enthalpy_of_fusion: {
    unit: 'kJ/mol',
    relation: 'ΔHfus = −0.88 + ΣN·hfus',
    error: '2.0 kJ/mol (38.7 %)',
    tested: 155,
  },
};
const SCALARS = Object.keys(PROPERTIES) as ScalarProperty[];
const ALL_PROPERTIES: JobackProperty[] = [...SCALARS, 'ideal_gas_heat_capacity'];

const CP_EQUATION = 'Cp° = a + b·T + c·T² + d·T³ (Cp° in J/(mol·K), T in K)';
const CP_RELATION = 'a = ΣN·a − 37.93, b = ΣN·b + 0.210, c = ΣN·c − 3.91e−4, d = ΣN·d + 2.06e−7';

/** Σtc where the Tc equation's denominator peaks; beyond it Tc/Tb grows again, which no real series does. */
const TC_SUM_AT_MAXIMUM = 0.4825;
/** Above this Joback's Tb, linear in the group counts, increasingly overestimates (Stein & Brown 1994 corrected it). */
const TB_RELIABLE_BELOW = 700;

/** Every estimate as reported: group contributions support 3 significant digits (../precision.ts). */
const toJobackPrecision = (x: number) => toMethodPrecision(x, 'groupContribution');

const HEAT_CAPACITY_SCHEMA: JsonSchema = objectOf({
  equation: STRING,
  // a, b, c, d, named by the equation.
  coefficients: { type: 'object', additionalProperties: NUMBER },
  value_at_298_15_K: QUANTITY,
  valid_range: RANGE,
  method: STRING,
  source: STRING,
});

const outputSchema = answerSchema(
  {
    smiles: STRING,
    compound: NAMED_COMPOUND_SCHEMA,
    canonical_smiles: STRING,
    formula: STRING,
    groups: {
      type: 'array',
      items: objectOf({
        group: STRING,
        count: { type: 'integer' },
        atoms: { type: 'array', items: { type: 'integer' } },
      }),
    },
    atom_count: { type: 'integer' },
    method: STRING,
    source: STRING,
    estimates: {
      type: 'object',
      propertyNames: { enum: ALL_PROPERTIES },
      properties: { ideal_gas_heat_capacity: HEAT_CAPACITY_SCHEMA },
      additionalProperties: QUANTITY,
    },
    unavailable: { type: 'array', items: objectOf({ property: STRING, reason: STRING }) },
    warnings: WARNINGS,
  },
  ['compound', 'formula'],
);

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_estimate_jobackArguments',
  properties: {
    smiles: {
      type: 'string',
      title: 'Smiles',
      minLength: 1,
      maxLength: MAX_SMILES_LENGTH,
      description: 'One neutral organic molecule, e.g. "CC(C)=O".',
    },
    compound_name: STRUCTURE_NAME_ARGUMENT,
    boiling_point: {
      type: 'number',
      title: 'Boiling Point',
      description: 'Measured normal boiling point, for the Tc equation.',
    },
    temperature_unit: { ...TEMPERATURE_UNIT_ARGUMENT, description: 'Of boiling_point: K, °C, °F or R.' },
  },
  // smiles or compound_name, exactly one: checked by run() with a message saying so (a top-level
  // oneOf is refused by some clients' function-calling schemas).
  required: [],
  minProperties: 1,
  additionalProperties: false,
};

/** Joback's Tm as the answer reports it, for judging a boiling point given without a unit. */
function estimatedMeltingPoint(counts: JobackGroupCounts, options: { atomCount: number }): number | undefined {
  const tm = jobackEstimate(counts, options).melting_point;
  return tm === undefined ? undefined : toJobackPrecision(tm);
}

/** Each group found, in the order of Joback's table, with the heavy atoms it covers (sorted). */
function groupsOf(fragments: JobackFragmentation): EstimateJobackResult['groups'] {
  return JOBACK_GROUPS.flatMap(({ name }) => {
    const atoms = fragments.assignments.filter((a) => a.group === name).flatMap((a) => a.atoms);
    return atoms.length === 0
      ? []
      : [{ group: name, count: fragments.counts[name], atoms: atoms.sort((x, y) => x - y) }];
  });
}

/** The estimates as reported: rounded, each with its relation, Joback's error and the caveats that apply. */
function estimatesOf(e: JobackEstimates): EstimateJobackResult['estimates'] {
  const estimates: EstimateJobackResult['estimates'] = {};
  for (const key of SCALARS) {
    const value = e[key];
    if (value === undefined) continue;
    const warnings: string[] = [];
    const notes = [`Average absolute error: ${PROPERTIES[key].error}.`];
    if (key === 'normal_boiling_point' && value > TB_RELIABLE_BELOW) {
      warnings.push(
        `Above about ${TB_RELIABLE_BELOW} K Joback's Tb, linear in the group counts, increasingly overestimates the boiling point.`,
      );
    }
    if (key === 'critical_temperature' && e.tcBoilingPoint) {
      const { given, value: tb } = e.tcBoilingPoint;
      // The given Tb is the caller's value in K (2 decimals drop conversion noise); the estimated one as reported.
      notes.unshift(
        given ? `With the given Tb = ${roundTo(tb, 2)} K.` : `With Joback's estimated Tb = ${toJobackPrecision(tb)} K.`,
      );
      if (!given)
        warnings.push(
          "Uses the estimated Tb: expect a larger error than Joback's; a measured Tb (service_estimate_joback's boiling_point) gives a better Tc.",
        );
      if ((e.tcSum ?? 0) > TC_SUM_AT_MAXIMUM) {
        warnings.push(
          `Σtc = ${roundTo(e.tcSum!, 4)} is past the maximum of the Tc equation's denominator (${TC_SUM_AT_MAXIMUM}): the molecule is larger than those Joback fitted and Tc is unreliable.`,
        );
      }
    }
    estimates[key] = {
      value: toJobackPrecision(value),
      unit: PROPERTIES[key].unit,
      method: PROPERTIES[key].relation,
      source: JOBACK_SOURCE,
      note: notes.join(' '),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }
  const cp = e.ideal_gas_heat_capacity;
  if (cp) {
    estimates.ideal_gas_heat_capacity = {
      equation: CP_EQUATION,
      // Sums of Joback's tabulated group values, kept as they are: they are the polynomial's parameters, not
      // estimates, so Cp°(T) computed from them is Joback's.
      coefficients: { ...cp },
      value_at_298_15_K: { value: toJobackPrecision(jobackHeatCapacity(cp, 298.15)), unit: 'J/(mol·K)' },
      valid_range: { ...JOBACK_CP_RANGE },
      method: CP_RELATION,
      source: JOBACK_SOURCE,
    };
  }
  return estimates;
}

export async function estimateJoback({
  smiles: givenSmiles,
  compound_name,
  boiling_point,
  temperature_unit,
}: EstimateJobackArgs): Promise<EstimateJobackResult> {
  const structure = structureFrom('smiles', givenSmiles, compound_name);
  const smiles = 'given' in structure ? structure.given : structure.smiles;
  const compound = 'given' in structure ? undefined : structure.compound;
  const fragments = await fragmentJoback(smiles);
  const options = { atomCount: fragments.atomCount };
  // A boiling point given without a unit that is implausible in K (under 20 K, or at most 100 and below the
  // estimated melting point) most likely meant °C: computed as given, with a warning saying so.
  const trap =
    boiling_point === undefined
      ? undefined
      : defaultUnitWarning(
          'temperature',
          boiling_point,
          temperature_unit,
          estimatedMeltingPoint(fragments.counts, options),
        );
  return withUnitTrap(trap, () => {
    const givenTb =
      boiling_point === undefined
        ? undefined
        : readTemperature(boiling_point, temperature_unit ?? 'K', 'boiling_point');
    const e = jobackEstimate(fragments.counts, { ...options, boilingPoint: givenTb });
    return {
      smiles,
      ...(compound ? { compound } : {}),
      canonical_smiles: fragments.canonicalSmiles,
      ...(fragments.formula ? { formula: fragments.formula } : {}),
      groups: groupsOf(fragments),
      atom_count: fragments.atomCount,
      method: JOBACK_METHOD,
      source: JOBACK_SOURCE,
      estimates: estimatesOf(e),
      unavailable: ALL_PROPERTIES.flatMap((property) => {
        const reason = e.unavailable[property];
        return reason ? [{ property, reason }] : [];
      }),
      warnings: fragments.warnings,
    };
  });
}

export const estimateJobackTool = defineTool<EstimateJobackArgs, Promise<EstimateJobackResult>>({
  name: 'service_estimate_joback',
  title: 'Joback group-contribution estimates from SMILES',
  description: [
    "Joback–Reid group-contribution estimates for a neutral organic molecule given as smiles or compound_name: Tb, Tm, Tc (K), Pc (bar), Vc (cm3/mol), ΔHf°, ΔGf° (gas, 298.15 K), ΔHvap, ΔHfus (kJ/mol) and the ideal-gas Cp° polynomial, each with Joback's average error.",
    'A measured boiling_point (temperature_unit, default K) improves Tc.',
  ].join(' '),
  details: [
    "Method: Joback–Reid group contribution (K. G. Joback, R. C. Reid, Chem. Eng. Commun. 57 (1987) 233; group values as in Poling, Prausnitz, O'Connell, The Properties of Gases and Liquids, 5th ed., Table 2-2), from the structure alone. The molecule is split into Joback's 41 groups by RDKit SMARTS matching, each heavy atom in exactly one group. A molecule with atoms no group covers (e.g. methane, water, sulfoxides, silicon, phosphorus) is refused (missing_data) with those atoms named; several disconnected molecules or an ion are invalid_arguments; a molecule too large for the matcher is out_of_range.",
    `Arguments: smiles, one neutral molecule ("CC(C)=O"), or compound_name. boiling_point: a measured normal boiling point, in temperature_unit (K by default; °C, °F, R; \`unit\` is accepted for temperature_unit), used in the Tc equation instead of the estimated Tb, which Joback found much more accurate. A boiling_point given without temperature_unit that is implausible in K (under 20 K, or at most 100 and below the estimated melting point) is computed as given, with a first warning naming °C and the argument to set.`,
    STRUCTURE_NAME_DETAILS,
    `Returns groups (group, count, heavy-atom indices from 0 in SMILES order), atom_count (atoms, hydrogens included: nA in the Pc equation), the method and source once, and estimates: ${SCALARS.map((key) => `${key} (${PROPERTIES[key].unit})`).join(', ')}, each {value, unit, method, source, note, warnings?}. Each value's method is its relation (ΣN·x sums the group value x over the groups): ${SCALARS.map((key) => PROPERTIES[key].relation).join('; ')}.`,
    `Each value's note gives the average absolute error Joback reported (K. G. Joback, thesis, MIT, 1984): ${SCALARS.map((key) => `${key} ${PROPERTIES[key].error} over ${PROPERTIES[key].tested} compounds`).join('; ')}. Every value is an estimate, not a measurement.`,
    `ideal_gas_heat_capacity: the coefficients a, b, c, d of ${CP_EQUATION}, with ${CP_RELATION} (its method); valid_range ${JOBACK_CP_RANGE.min}–${JOBACK_CP_RANGE.max} K (Joback fitted the group values to ideal-gas data from 298 to 1000 K; outside the range the polynomial is an extrapolation), and the value at 298.15 K.`,
    `Critical temperature: its note first gives the Tb used. With the estimated Tb a warning says the error is larger than Joback's figure (which is for measured Tb). Above about ${TB_RELIABLE_BELOW} K Joback's Tb, linear in the group counts, increasingly overestimates (a warning says so); past Σtc = ${TC_SUM_AT_MAXIMUM} the Tc equation's denominator falls again and Tc is flagged unreliable, and where it has no positive solution Tc is unavailable. Properties a group has no contribution for are listed under unavailable with the reason; top-level warnings are caveats about the group assignment as a whole (a decomposition that is one of several, a lactone, no carbon).`,
    "Precision: estimates are given to 3 significant digits (group contributions are good to several percent); the Cp° coefficients are the sums of Joback's tabulated values, unrounded.",
  ],
  argumentAliases: TEMPERATURE_UNIT_ALIASES,
  inputSchema,
  outputSchema,
  example: { smiles: 'CC(C)=O' },
  run: estimateJoback,
});
