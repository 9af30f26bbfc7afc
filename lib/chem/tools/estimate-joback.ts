/**
 * service_estimate_joback: Joback–Reid group-contribution estimates for any organic molecule given
 * as SMILES: the groups found (RDKit SMARTS), then Tb, Tm, Tc, Pc, Vc, ΔHf°, ΔGf°, ΔHvap(Tb), ΔHfus and
 * the ideal-gas Cp° polynomial, each flagged as an estimate with Joback's reported average error.
 * The science is ../joback.ts.
 */
import {
  fragmentJoback,
  JOBACK_CP_RANGE,
  JOBACK_GROUPS,
  JOBACK_METHOD,
  JOBACK_SOURCE,
  type JobackProperty,
  jobackEstimate,
  jobackHeatCapacity,
} from '../joback.ts';
import { MAX_SMILES_LENGTH } from '../rdkit.ts';
import { roundTo } from '../round.ts';
import { type ChemTool, type JsonSchema, ToolError } from '../tool.ts';
import { toSI } from '../units.ts';
import {
  NAMED_COMPOUND_SCHEMA,
  type NamedCompound,
  STRUCTURE_NAME_ARGUMENT,
  structureFrom,
} from './structure-argument.ts';

export interface EstimateJobackArgs {
  smiles?: string;
  compound_name?: string;
  boiling_point?: number;
  unit?: string;
}

export interface Estimate {
  value: number;
  unit: string;
  method: string;
  source: string;
  note?: string;
  warnings: string[];
}

export interface HeatCapacityEstimate {
  equation: string;
  coefficients: { a: Quantity; b: Quantity; c: Quantity; d: Quantity };
  value_at_298_15_K: Quantity;
  valid_range: { min: number; max: number; unit: 'K' };
  method: string;
  source: string;
  warnings: string[];
}

interface Quantity {
  value: number;
  unit: string;
}

type ScalarProperty = Exclude<JobackProperty, 'ideal_gas_heat_capacity'>;

export interface EstimateJobackResult {
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
 * Each property: unit, meaning, and the accuracy Joback reported for it (K. G. Joback, thesis, MIT,
 * 1984, summarised in Joback & Reid 1987): average absolute error over the compounds tested.
 */
const PROPERTIES: Record<ScalarProperty, { unit: string; description: string; error: string }> = {
  normal_boiling_point: {
    unit: 'K',
    description: 'Normal boiling point Tb.',
    error: '12.9 K (3.6 %) over 438 compounds',
  },
  melting_point: { unit: 'K', description: 'Melting point Tm.', error: '22.6 K (11.2 %) over 388 compounds' },
  critical_temperature: {
    unit: 'K',
    description: 'Critical temperature Tc.',
    error: '4.8 K (0.8 %) over 409 compounds, with measured boiling points',
  },
  critical_pressure: { unit: 'bar', description: 'Critical pressure Pc.', error: '2.1 bar (5.2 %) over 392 compounds' },
  critical_volume: {
    unit: 'cm3/mol',
    description: 'Critical molar volume Vc.',
    error: '7.5 cm3/mol (2.3 %) over 310 compounds',
  },
  enthalpy_of_formation_gas: {
    unit: 'kJ/mol',
    description: 'Standard enthalpy of formation of the ideal gas at 298.15 K, ΔHf°.',
    error: '9.2 kJ/mol (2.2 kcal/mol) over 370 compounds',
  },
  gibbs_energy_of_formation_gas: {
    unit: 'kJ/mol',
    description: 'Standard Gibbs energy of formation of the ideal gas at 298.15 K, ΔGf°.',
    error: '8.4 kJ/mol (2.0 kcal/mol) over 328 compounds',
  },
  enthalpy_of_vaporization: {
    unit: 'kJ/mol',
    description: 'Enthalpy of vaporization at the normal boiling point, ΔHvap(Tb).',
    error: '1.3 kJ/mol (3.9 %) over 368 compounds',
  },
  enthalpy_of_fusion: {
    unit: 'kJ/mol',
    description: 'Enthalpy of fusion at the melting point, ΔHfus.',
    error: '2.0 kJ/mol (38.7 %) over 155 compounds',
  },
};
const SCALARS = Object.keys(PROPERTIES) as ScalarProperty[];
const ALL_PROPERTIES: JobackProperty[] = [...SCALARS, 'ideal_gas_heat_capacity'];

/** Σtc where the Tc equation's denominator peaks; beyond it Tc/Tb grows again, which no real series does. */
const TC_SUM_AT_MAXIMUM = 0.4825;
/** Above this Joback's Tb, linear in the group counts, increasingly overestimates (Stein & Brown 1994 corrected it). */
const TB_RELIABLE_BELOW = 700;

const estimateSchema = (key: ScalarProperty): JsonSchema => ({
  type: 'object',
  description: `${PROPERTIES[key].description} Unit: ${PROPERTIES[key].unit}.`,
  properties: {
    value: { type: 'number' },
    unit: { type: 'string', const: PROPERTIES[key].unit },
    method: { type: 'string', minLength: 1 },
    source: { type: 'string', minLength: 1 },
    note: { type: 'string' },
    warnings: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
  required: ['value', 'unit', 'method', 'source', 'warnings'],
  additionalProperties: false,
});

const quantitySchema = (unit: string): JsonSchema => ({
  type: 'object',
  properties: { value: { type: 'number' }, unit: { type: 'string', const: unit } },
  required: ['value', 'unit'],
  additionalProperties: false,
});

const heatCapacitySchema: JsonSchema = {
  type: 'object',
  description: 'Ideal-gas heat capacity polynomial Cp° = a + b·T + c·T² + d·T³, Cp° in J/(mol·K), T in K.',
  properties: {
    equation: { type: 'string' },
    coefficients: {
      type: 'object',
      properties: {
        a: quantitySchema('J/(mol·K)'),
        b: quantitySchema('J/(mol·K2)'),
        c: quantitySchema('J/(mol·K3)'),
        d: quantitySchema('J/(mol·K4)'),
      },
      required: ['a', 'b', 'c', 'd'],
      additionalProperties: false,
    },
    value_at_298_15_K: quantitySchema('J/(mol·K)'),
    valid_range: {
      type: 'object',
      properties: { min: { type: 'number' }, max: { type: 'number' }, unit: { type: 'string', const: 'K' } },
      required: ['min', 'max', 'unit'],
      additionalProperties: false,
    },
    method: { type: 'string', minLength: 1 },
    source: { type: 'string', minLength: 1 },
    warnings: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
  required: ['equation', 'coefficients', 'value_at_298_15_K', 'valid_range', 'method', 'source', 'warnings'],
  additionalProperties: false,
};

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    smiles: { type: 'string', description: 'The SMILES as given, or that of compound_name.' },
    compound: NAMED_COMPOUND_SCHEMA,
    canonical_smiles: { type: 'string', description: 'RDKit canonical SMILES.' },
    formula: { type: 'string', description: 'Molecular formula, Hill order.' },
    groups: {
      type: 'array',
      description:
        "Joback groups found, in the order of Joback's table, with the heavy atoms each covers (indices from 0 in SMILES order).",
      items: {
        type: 'object',
        properties: {
          group: { type: 'string', enum: JOBACK_GROUPS.map((g) => g.name) },
          count: { type: 'integer', minimum: 1 },
          atoms: { type: 'array', items: { type: 'integer', minimum: 0 } },
        },
        required: ['group', 'count', 'atoms'],
        additionalProperties: false,
      },
    },
    atom_count: {
      type: 'integer',
      minimum: 1,
      description: 'Number of atoms, hydrogens included (nA in the Pc equation).',
    },
    method: { type: 'string' },
    source: { type: 'string' },
    estimates: {
      type: 'object',
      description:
        'Each estimate {value, unit, method, source, warnings}; a property the groups cannot give is listed under unavailable instead.',
      properties: {
        ...Object.fromEntries(SCALARS.map((key) => [key, estimateSchema(key)])),
        ideal_gas_heat_capacity: heatCapacitySchema,
      },
      additionalProperties: false,
    },
    unavailable: {
      type: 'array',
      description: 'Properties not estimated, with the reason.',
      items: {
        type: 'object',
        properties: { property: { type: 'string', enum: ALL_PROPERTIES }, reason: { type: 'string' } },
        required: ['property', 'reason'],
        additionalProperties: false,
      },
    },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'Caveats about the group assignment as a whole.',
    },
  },
  required: [
    'smiles',
    'canonical_smiles',
    'groups',
    'atom_count',
    'method',
    'source',
    'estimates',
    'unavailable',
    'warnings',
  ],
  additionalProperties: false,
};

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_estimate_jobackArguments',
  properties: {
    smiles: {
      type: 'string',
      title: 'Smiles',
      minLength: 1,
      maxLength: MAX_SMILES_LENGTH,
      description: 'SMILES of one neutral organic molecule, e.g. "CC(C)=O" (acetone). Give this or compound_name.',
    },
    compound_name: STRUCTURE_NAME_ARGUMENT,
    boiling_point: {
      type: 'number',
      title: 'Boiling Point',
      description:
        "Optional measured normal boiling point, in unit (default K). When given, the Tc equation uses it instead of Joback's estimated Tb, which Joback found much more accurate.",
    },
    unit: {
      type: 'string',
      title: 'Unit',
      minLength: 1,
      maxLength: 40,
      default: 'K',
      description: 'Unit of boiling_point: K (default), °C (also "C", "degC"), °F ("F", "degF") or R (Rankine).',
    },
  },
  // smiles or compound_name, exactly one: checked by run() with a message saying so (a top-level
  // oneOf is refused by some clients' function-calling schemas).
  required: [],
  minProperties: 1,
  additionalProperties: false,
};

export async function estimateJoback({
  smiles: givenSmiles,
  compound_name,
  boiling_point,
  unit = 'K',
}: EstimateJobackArgs): Promise<EstimateJobackResult> {
  const structure = structureFrom('smiles', givenSmiles, compound_name);
  const smiles = 'given' in structure ? structure.given : structure.smiles;
  const compound = 'given' in structure ? undefined : structure.compound;
  let givenTb: number | undefined;
  if (boiling_point !== undefined) {
    givenTb = toSI(boiling_point, unit, 'temperature');
    if (!(givenTb > 0))
      throw new ToolError('out_of_range', `boiling_point must be above absolute zero; got ${boiling_point} ${unit}.`, {
        boiling_point,
        unit,
      });
  }
  const fragments = await fragmentJoback(smiles);
  const e = jobackEstimate(fragments.counts, { atomCount: fragments.atomCount, boilingPoint: givenTb });

  const estimates: EstimateJobackResult['estimates'] = {};
  for (const key of SCALARS) {
    const value = e[key];
    if (value === undefined) continue;
    const warnings = [
      `Estimate, not a measurement: Joback reports an average absolute error of ${PROPERTIES[key].error}.`,
    ];
    let note: string | undefined;
    if (key === 'normal_boiling_point' && value > TB_RELIABLE_BELOW) {
      warnings.push(
        `Above about ${TB_RELIABLE_BELOW} K Joback's Tb, linear in the group counts, increasingly overestimates the boiling point.`,
      );
    }
    if (key === 'critical_temperature' && e.tcBoilingPoint) {
      note = `Tc = Tb/(0.584 + 0.965·Σtc − Σtc²) with ${e.tcBoilingPoint.given ? 'the given' : "Joback's estimated"} Tb = ${roundTo(e.tcBoilingPoint.value, 2)} K.`;
      if (!e.tcBoilingPoint.given) {
        warnings.push(
          "Tc uses the estimated Tb, so its error is larger than Joback's figure (which is for measured Tb); pass boiling_point to use a measured one.",
        );
      }
      if ((e.tcSum ?? 0) > TC_SUM_AT_MAXIMUM) {
        warnings.push(
          `Σtc = ${roundTo(e.tcSum!, 4)} is past the maximum of the Tc equation's denominator (${TC_SUM_AT_MAXIMUM}): the molecule is larger than those Joback fitted and Tc is unreliable.`,
        );
      }
    }
    estimates[key] = {
      value: roundTo(value, key === 'enthalpy_of_vaporization' || key === 'enthalpy_of_fusion' ? 3 : 2),
      unit: PROPERTIES[key].unit,
      method: JOBACK_METHOD,
      source: JOBACK_SOURCE,
      ...(note ? { note } : {}),
      warnings,
    };
  }
  const cp = e.ideal_gas_heat_capacity;
  if (cp) {
    estimates.ideal_gas_heat_capacity = {
      equation: 'Cp° = a + b·T + c·T² + d·T³ (Cp° in J/(mol·K), T in K)',
      coefficients: {
        a: { value: cp.a, unit: 'J/(mol·K)' },
        b: { value: cp.b, unit: 'J/(mol·K2)' },
        c: { value: cp.c, unit: 'J/(mol·K3)' },
        d: { value: cp.d, unit: 'J/(mol·K4)' },
      },
      value_at_298_15_K: { value: roundTo(jobackHeatCapacity(cp, 298.15), 2), unit: 'J/(mol·K)' },
      valid_range: { ...JOBACK_CP_RANGE },
      method: JOBACK_METHOD,
      source: JOBACK_SOURCE,
      warnings: [
        `Estimate, not a measurement: Joback fitted the group values to ideal-gas data between 298 and 1000 K; outside ${JOBACK_CP_RANGE.min}–${JOBACK_CP_RANGE.max} K the polynomial is an extrapolation.`,
      ],
    };
  }

  const groups = JOBACK_GROUPS.flatMap(({ name }) => {
    const atoms = fragments.assignments.filter((a) => a.group === name).flatMap((a) => a.atoms);
    return atoms.length === 0
      ? []
      : [{ group: name, count: fragments.counts[name], atoms: atoms.sort((x, y) => x - y) }];
  });

  return {
    smiles,
    ...(compound ? { compound } : {}),
    canonical_smiles: fragments.canonicalSmiles,
    ...(fragments.formula ? { formula: fragments.formula } : {}),
    groups,
    atom_count: fragments.atomCount,
    method: JOBACK_METHOD,
    source: JOBACK_SOURCE,
    estimates,
    unavailable: ALL_PROPERTIES.flatMap((property) => {
      const reason = e.unavailable[property];
      return reason ? [{ property, reason }] : [];
    }),
    warnings: fragments.warnings,
  };
}

export const estimateJobackTool = {
  name: 'service_estimate_joback',
  title: 'Joback group-contribution estimates from SMILES',
  description: [
    'Estimate pure-compound properties of an organic molecule from its structure alone with the Joback–Reid group-contribution method (Joback & Reid, Chem. Eng. Commun. 57 (1987) 233; values as in Poling et al., The Properties of Gases and Liquids, 5th ed., Table 2-2).',
    'Arguments: smiles (one neutral molecule, e.g. "CC(C)=O") or instead compound_name (a name, CAS number or InChIKey, e.g. "caffeine", from the measured catalogue or the PubChem name table; the result then names the compound under compound); optional boiling_point with unit (default K; °C, °F, R accepted): a measured normal boiling point used in the Tc equation instead of the estimated one, which makes Tc much more accurate.',
    "The molecule is split into Joback's 41 groups by RDKit SMARTS matching, each heavy atom in exactly one group; a molecule with atoms no group covers (e.g. methane, water, sulfoxides, silicon, phosphorus) is refused with those atoms named.",
    "Returns groups (group, count, atom indices), atom_count, and estimates, each {value, unit, method, source, warnings} with Joback's reported average error:",
    'normal_boiling_point (K), melting_point (K), critical_temperature (K), critical_pressure (bar), critical_volume (cm3/mol), enthalpy_of_formation_gas and gibbs_energy_of_formation_gas (ideal gas, 298.15 K, kJ/mol), enthalpy_of_vaporization at Tb (kJ/mol), enthalpy_of_fusion (kJ/mol),',
    'and ideal_gas_heat_capacity: coefficients a, b, c, d of Cp° = a + bT + cT² + dT³ (J/(mol·K), T in K) with valid_range 273–1000 K and the value at 298.15 K.',
    'Properties a group has no contribution for are listed under unavailable with the reason.',
  ].join(' '),
  inputSchema,
  outputSchema,
  run: estimateJoback,
} satisfies ChemTool<EstimateJobackArgs, Promise<EstimateJobackResult>>;
