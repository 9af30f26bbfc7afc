/**
 * service_eos_state: the state of one pure compound at a temperature and pressure from a cubic
 * equation of state (Peng–Robinson by default, SRK, Redlich–Kwong, van der Waals): every real root
 * in Z and, for the liquid and vapour roots, molar volume, density, fugacity coefficient and
 * fugacity, with the stable phase named. The science is ../eos.ts.
 */

import type { Compound } from '../compounds.ts';
import { CUBIC_EOS, CUBIC_EOS_IDS, type CubicEosId, pureState, type RootState } from '../eos.ts';
import { referenceFluidByCas } from '../helmholtz/fluids.ts';
import { findCompound } from '../lookup.ts';
import { type ChemTool, type JsonSchema, ToolError } from '../tool.ts';
import { COMPOUND_NAME_ARGUMENT, defaultUnitWarning } from './computed-value.ts';
import { referenceState } from './eos-reference.ts';
import {
  COMPOUND_INPUTS_SCHEMA,
  CONDITIONS_SCHEMA,
  type CompoundInputs,
  compoundInputs,
  conditionsResult,
  EOS_ARGUMENT,
  EOS_SCHEMA,
  eosId,
  eosResult,
  eosSource,
  fugacityCoefficient,
  PRESSURE_UNIT_ARGUMENT,
  type Quantity,
  quantitySchema,
  readConditions,
  simpleQuantitySchema,
  TEMPERATURE_UNIT_ARGUMENT,
  VOLUME_AND_DENSITY_SCHEMA,
  volumeAndDensity,
} from './eos-shared.ts';

export type EosChoice = CubicEosId | 'reference';

export interface EosStateArgs {
  compound_name: string;
  temperature: number;
  pressure: number;
  eos?: EosChoice;
  temperature_unit?: string;
  pressure_unit?: string;
}

export type PhaseName = 'liquid' | 'vapor' | 'supercritical';

export interface EosPhase {
  phase: PhaseName;
  root: 'smallest' | 'largest' | 'only';
  stable: boolean;
  compressibility_factor: Quantity;
  molar_volume: Quantity;
  density: Quantity;
  fugacity_coefficient: Quantity;
  fugacity: Quantity;
  /** Only from a reference equation of state. */
  caloric?: {
    enthalpy: Quantity;
    entropy: Quantity;
    isobaric_heat_capacity: Quantity;
    isochoric_heat_capacity: Quantity;
    speed_of_sound: Quantity;
  };
}

export interface EosStateResult {
  compound: { name: string; cas: string; formula: string; molecular_weight: { value: number; unit: 'g/mol' } };
  conditions: ReturnType<typeof conditionsResult>;
  reduced_temperature: { value: number; unit: '' };
  reduced_pressure: { value: number; unit: '' };
  equation_of_state:
    | ReturnType<typeof eosResult>
    | { id: 'reference'; name: string; source: string; form: string; form_source: string };
  inputs: CompoundInputs['used'];
  z_roots: number[];
  phase: 'liquid' | 'vapor' | 'supercritical' | 'liquid-like' | 'vapor-like';
  phase_basis: string;
  phases: EosPhase[];
  warnings: string[];
}

const PHASE_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'One root of the cubic that is a phase candidate: the only root, or the smallest (liquid) and largest (vapour) of three.',
  properties: {
    phase: { type: 'string', enum: ['liquid', 'vapor', 'supercritical'] },
    root: { type: 'string', enum: ['smallest', 'largest', 'only'] },
    stable: { type: 'boolean', description: 'True for the root of lower Gibbs energy (lower fugacity).' },
    ...VOLUME_AND_DENSITY_SCHEMA,
    fugacity_coefficient: quantitySchema('', 'Fugacity coefficient φ = f/P.'),
    fugacity: quantitySchema('Pa', 'Fugacity f = φ·P.'),
    caloric: {
      type: 'object',
      description:
        'Only with eos "reference": caloric properties of the phase (h and s on the equation’s own reference state).',
      properties: {
        enthalpy: quantitySchema('J/mol', 'Molar enthalpy h.'),
        entropy: quantitySchema('J/(mol·K)', 'Molar entropy s.'),
        isobaric_heat_capacity: quantitySchema('J/(mol·K)', 'Isobaric heat capacity cp.'),
        isochoric_heat_capacity: quantitySchema('J/(mol·K)', 'Isochoric heat capacity cv.'),
        speed_of_sound: quantitySchema('m/s', 'Speed of sound w.'),
      },
      required: ['enthalpy', 'entropy', 'isobaric_heat_capacity', 'isochoric_heat_capacity', 'speed_of_sound'],
      additionalProperties: false,
    },
  },
  required: [
    'phase',
    'root',
    'stable',
    'compressibility_factor',
    'molar_volume',
    'density',
    'fugacity_coefficient',
    'fugacity',
  ],
  additionalProperties: false,
};

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    compound: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        cas: { type: 'string' },
        formula: { type: 'string' },
        molecular_weight: simpleQuantitySchema('g/mol'),
      },
      required: ['name', 'cas', 'formula', 'molecular_weight'],
      additionalProperties: false,
    },
    conditions: CONDITIONS_SCHEMA,
    reduced_temperature: simpleQuantitySchema('', 'Tr = T/Tc.'),
    reduced_pressure: simpleQuantitySchema('', 'Pr = P/Pc.'),
    equation_of_state: {
      ...EOS_SCHEMA,
      properties: {
        ...(EOS_SCHEMA.properties as Record<string, JsonSchema>),
        id: { type: 'string', enum: ['reference', ...CUBIC_EOS_IDS] },
      },
    },
    inputs: COMPOUND_INPUTS_SCHEMA,
    z_roots: {
      type: 'array',
      items: { type: 'number' },
      minItems: 1,
      maxItems: 3,
      description:
        'Every real root Z > B of the cubic, ascending; of three, the middle one is mechanically unstable and never a phase.',
    },
    phase: {
      type: 'string',
      enum: ['liquid', 'vapor', 'supercritical', 'liquid-like', 'vapor-like'],
      description:
        'The stable phase; "-like" when the pressure is within about 1% of the equation\'s saturation pressure.',
    },
    phase_basis: { type: 'string', description: 'How the phase was decided.' },
    phases: { type: 'array', items: PHASE_SCHEMA, minItems: 1, maxItems: 2 },
    warnings: { type: 'array', items: { type: 'string' } },
  },
  required: [
    'compound',
    'conditions',
    'reduced_temperature',
    'reduced_pressure',
    'equation_of_state',
    'inputs',
    'z_roots',
    'phase',
    'phase_basis',
    'phases',
    'warnings',
  ],
  additionalProperties: false,
};

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_eos_stateArguments',
  properties: {
    compound_name: COMPOUND_NAME_ARGUMENT,
    temperature: {
      type: 'number',
      title: 'Temperature',
      description: 'Temperature, in temperature_unit (default K); above absolute zero.',
    },
    pressure: {
      type: 'number',
      title: 'Pressure',
      exclusiveMinimum: 0,
      description: 'Absolute pressure, in pressure_unit (default Pa).',
    },
    eos: {
      type: 'string',
      title: EOS_ARGUMENT.title,
      enum: ['reference', ...CUBIC_EOS_IDS],
      description:
        'Equation of state: "reference" (the fluid\'s multiparameter Helmholtz-energy equation, e.g. IAPWS-95 for water, Span–Wagner for CO2; the default when the fluid has one), or a cubic: "peng_robinson" (Peng–Robinson 1976, the default otherwise), "srk" (Soave–Redlich–Kwong 1972), "redlich_kwong" (Redlich–Kwong 1949) or "van_der_waals" (van der Waals 1873, qualitative only).',
    },
    temperature_unit: TEMPERATURE_UNIT_ARGUMENT,
    pressure_unit: PRESSURE_UNIT_ARGUMENT,
  },
  required: ['compound_name', 'temperature', 'pressure'],
  additionalProperties: false,
};

const BASIS = {
  supercritical: 'One real root, with T ≥ Tc and P ≥ Pc: a supercritical fluid.',
  single:
    'One real root, named liquid or vapour by the phase identification parameter Π (G. Venkatarathnam, L. R. Oellrich, Fluid Phase Equilib. 301 (2011) 225–233): Π > 1 is liquid.',
  two: 'Three real roots: the smallest is the liquid candidate, the largest the vapour candidate (the middle one is mechanically unstable); the candidate with the lower fugacity coefficient has the lower Gibbs energy and is the stable phase.',
};

/** The state, with a warning first for a temperature or pressure implausible in the unit it defaulted to. */
function run(args: EosStateArgs): EosStateResult {
  const { compound } = findCompound(args.compound_name);
  const result = stateFor(args, compound);
  const melting = compound.properties.melting_point?.value;
  const traps = [
    defaultUnitWarning('temperature', args.temperature, args.temperature_unit, 'temperature_unit', melting),
    defaultUnitWarning('pressure', args.pressure, args.pressure_unit, 'pressure_unit'),
  ].filter((w) => w !== undefined);
  return traps.length ? { ...result, warnings: [...traps, ...result.warnings] } : result;
}

function stateFor(args: EosStateArgs, compound: Compound): EosStateResult {
  const fluid = referenceFluidByCas(compound.cas);
  if (args.eos === 'reference' || (args.eos === undefined && fluid)) {
    if (!fluid) {
      throw new ToolError(
        'missing_data',
        `No reference equation of state is on hand for ${compound.name}; use a cubic equation (eos "peng_robinson").`,
        { compound: compound.name },
      );
    }
    return referenceState(
      compound,
      fluid,
      readConditions(args.temperature, args.temperature_unit ?? 'K', args.pressure, args.pressure_unit ?? 'Pa'),
    );
  }
  const eos = CUBIC_EOS[eosId(args.eos)];
  const inputs = compoundInputs(compound, eos);
  const conditions = readConditions(
    args.temperature,
    args.temperature_unit ?? 'K',
    args.pressure,
    args.pressure_unit ?? 'Pa',
  );
  const { temperature: t, pressure: p } = conditions;
  const state = pureState(eos, inputs.constants, t, p);
  const molarMass = compound.properties.molecular_weight!.value;
  const source = eosSource(eos);

  const phaseOf = (name: PhaseName, root: EosPhase['root'], r: RootState, stable: boolean): EosPhase => {
    const phi = fugacityCoefficient(r.lnPhi, `the ${name} root`);
    return {
      phase: name,
      root,
      stable,
      ...volumeAndDensity(eos, r.z, r.molarVolume, molarMass, root),
      fugacity_coefficient: { value: phi, unit: '', method: `${eos.name}: ln φ = Z − 1 − ln(Z − B) − (A/B)·I`, source },
      fugacity: { value: phi * p, unit: 'Pa', method: 'f = φ·P', source },
    };
  };

  let phases: EosPhase[];
  let basis: string;
  if (state.single) {
    const name: PhaseName =
      state.label === 'supercritical' ? 'supercritical' : state.label === 'liquid' ? 'liquid' : 'vapor';
    phases = [phaseOf(name, 'only', state.single, true)];
    basis = state.label === 'supercritical' ? BASIS.supercritical : BASIS.single;
  } else {
    phases = [
      phaseOf('liquid', 'smallest', state.liquid!, state.stable === 'liquid'),
      phaseOf('vapor', 'largest', state.vapor!, state.stable === 'vapor'),
    ];
    basis = BASIS.two;
  }

  const warnings = [...inputs.warnings, ...state.warnings];
  const melting = compound.properties.melting_point;
  if (melting && t < melting.value) {
    warnings.push(
      `${t} K is below the melting point of ${compound.name} (${melting.value} K): at equilibrium it is solid, and a cubic equation of state describes only the fluid (here a subcooled one).`,
    );
  }
  const liquidStable = state.stable === 'liquid' || state.label === 'liquid';
  if (!eos.usesAcentricFactor || liquidStable) warnings.unshift(eos.caveat);

  return {
    compound: {
      name: compound.name,
      cas: compound.cas,
      formula: compound.formula,
      molecular_weight: { value: molarMass, unit: 'g/mol' },
    },
    conditions: conditionsResult(conditions),
    reduced_temperature: { value: t / inputs.constants.tc, unit: '' },
    reduced_pressure: { value: p / inputs.constants.pc, unit: '' },
    equation_of_state: eosResult(eos),
    inputs: inputs.used,
    z_roots: state.zRoots,
    phase: state.label,
    phase_basis: basis,
    phases,
    warnings,
  };
}

export const eosStateTool = {
  name: 'service_eos_state',
  title: 'Equation of state: pure compound',
  description: [
    'Thermodynamic state of one pure compound at a given temperature and pressure from an equation of state.',
    'eos: "reference", the fluid\'s reference multiparameter Helmholtz-energy equation (IAPWS-95 for water, Span–Wagner for CO2 and about 80 other fluids; the default when the fluid has one): one stable phase with Z, volume, density, fugacity and caloric (h, s, cp, cv, speed of sound);',
    'or a cubic: "peng_robinson" (Peng–Robinson 1976, the default otherwise), "srk" (Soave–Redlich–Kwong 1972), "redlich_kwong" (Redlich–Kwong 1949) or "van_der_waals" (1873, qualitative), all in the generic form of Smith, Van Ness & Abbott Table 3.1, using the compound\'s critical temperature, critical pressure and (PR, SRK) acentric factor from the built-in data.',
    'Arguments: compound_name (name, synonym, CAS, formula, SMILES or InChIKey); temperature with temperature_unit (default K; °C, °F, R accepted); pressure (absolute) with pressure_unit (default Pa; kPa, MPa, bar, mbar, atm, psi, mmHg, torr accepted).',
    'Returns the conditions in SI, reduced temperature and pressure, the equation used with its constants and source, the critical constants used with their sources, z_roots (every real root of the cubic in Z, ascending),',
    'and phases: for the only root, or for the smallest (liquid) and largest (vapour) of three, the compressibility factor Z, molar volume (m3/mol), density (kg/m3), fugacity coefficient and fugacity (Pa), each marked stable or not.',
    'phase names the stable phase: the root with the lower fugacity coefficient (lower Gibbs energy) when there are two, "supercritical" above Tc and Pc, "liquid-like"/"vapor-like" within about 1% of the equation\'s saturation pressure.',
    'warnings flag near-critical conditions, near-saturation ambiguity, van der Waals and Redlich–Kwong limits, and that cubic-equation liquid densities are approximate (use service_liquid_density for liquids).',
    'Fails with missing_data when the compound lacks Tc, Pc or (for PR and SRK) ω.',
  ].join(' '),
  inputSchema,
  outputSchema,
  run,
} satisfies ChemTool<EosStateArgs, EosStateResult>;
