/**
 * service_eos_state: the state of one pure compound at a temperature and pressure from the fluid's
 * reference equation of state (./eos-reference.ts) or a cubic one (Peng–Robinson, SRK, Redlich–Kwong,
 * van der Waals): every real root in Z and, for the liquid and vapour roots, molar volume, density,
 * fugacity coefficient and fugacity, with the stable phase named. The science is ../eos.ts.
 */

import type { Compound } from '../compounds.ts';
import { type CubicErrorTable, type CubicRegion, cubicRegion, type REGIONS } from '../cubic-errors.ts';
import cubicErrors from '../data/cubic-errors.json' with { type: 'json' };
import {
  CUBIC_EOS,
  CUBIC_EOS_IDS,
  type CubicEos,
  NEAR_CRITICAL_WARNING,
  type PhaseLabel,
  pureState,
  type RootState,
} from '../eos.ts';
import { referenceFluidByCas } from '../helmholtz/fluids.ts';
import { findCompound } from '../lookup.ts';
import { toMethodPrecision } from '../precision.ts';
import { findPseudoPure } from '../pseudo-pure.ts';
import { defineTool, type JsonSchema, ToolError } from '../tool.ts';
import { answerSchema, QUANTITY, STRING, WARNINGS } from './answer-schema.ts';
import {
  COMPOSITION_SCHEMA,
  COMPOUND_NAME_ARGUMENT,
  defaultUnitWarning,
  PRESSURE_UNIT_ARGUMENT,
  STATE_UNIT_ALIASES,
  TEMPERATURE_UNIT_ARGUMENT,
} from './computed-value.ts';
import { pseudoPureState, REFERENCE_FORM_DETAILS, referenceState } from './eos-reference.ts';
import {
  COMPOUND_INPUTS_SCHEMA,
  CONDITIONS_SCHEMA,
  type CompoundInputs,
  CUBIC_EOS_DETAILS,
  CUBIC_FORMS_DETAILS,
  compoundInputs,
  compoundWithMass,
  computed,
  conditionsResult,
  EOS_SCHEMA,
  eosId,
  eosResult,
  fugacityCoefficient,
  type Quantity,
  quantitiesObject,
  ratio,
  readConditions,
  type SimpleQuantity,
  volumeAndDensity,
} from './eos-shared.ts';

const EOS_CHOICES = ['reference', ...CUBIC_EOS_IDS] as const;

export type EosChoice = (typeof EOS_CHOICES)[number];

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
  /** Air, a mixture, has its composition in place of a formula. */
  compound: {
    name: string;
    cas: string;
    formula?: string;
    composition?: { name: string; mole_fraction: number }[];
    molecular_weight: SimpleQuantity;
  };
  conditions: ReturnType<typeof conditionsResult>;
  reduced_temperature: SimpleQuantity;
  reduced_pressure: SimpleQuantity;
  equation_of_state: ReturnType<typeof eosResult> | { id: 'reference'; name: string; source: string };
  inputs: CompoundInputs['used'];
  z_roots: number[];
  phase: 'liquid' | 'vapor' | 'supercritical' | 'liquid-like' | 'vapor-like';
  phase_basis: string;
  phases: EosPhase[];
  warnings: string[];
}

/** One root taken as a phase; caloric only with eos "reference". */
const PHASE_SCHEMA = quantitiesObject(
  ['compressibility_factor', 'molar_volume', 'density', 'fugacity_coefficient', 'fugacity'],
  {
    phase: { enum: ['liquid', 'vapor', 'supercritical'] },
    root: { enum: ['smallest', 'largest', 'only'] },
    stable: { type: 'boolean' },
    caloric: quantitiesObject([
      'enthalpy',
      'entropy',
      'isobaric_heat_capacity',
      'isochoric_heat_capacity',
      'speed_of_sound',
    ]),
  },
  ['caloric'],
);

const outputSchema = answerSchema({
  compound: quantitiesObject(
    ['molecular_weight'],
    { name: STRING, cas: STRING, formula: STRING, composition: COMPOSITION_SCHEMA },
    ['formula', 'composition'],
  ),
  conditions: CONDITIONS_SCHEMA,
  reduced_temperature: QUANTITY,
  reduced_pressure: QUANTITY,
  equation_of_state: EOS_SCHEMA,
  inputs: COMPOUND_INPUTS_SCHEMA,
  z_roots: { type: 'array', items: { type: 'number' } },
  phase: { enum: ['liquid', 'vapor', 'supercritical', 'liquid-like', 'vapor-like'] },
  phase_basis: STRING,
  phases: { type: 'array', items: PHASE_SCHEMA },
  warnings: WARNINGS,
});

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_eos_stateArguments',
  properties: {
    compound_name: COMPOUND_NAME_ARGUMENT,
    temperature: { type: 'number', title: 'Temperature', description: 'In temperature_unit.' },
    pressure: { type: 'number', title: 'Pressure', exclusiveMinimum: 0, description: 'Absolute, in pressure_unit.' },
    eos: {
      type: 'string',
      title: 'Eos',
      enum: [...EOS_CHOICES],
      description: 'Default "reference" if the fluid has one, else peng_robinson.',
    },
    temperature_unit: TEMPERATURE_UNIT_ARGUMENT,
    pressure_unit: PRESSURE_UNIT_ARGUMENT,
  },
  required: ['compound_name', 'temperature', 'pressure'],
  additionalProperties: false,
};

const BASIS = {
  supercritical: 'One real root, T ≥ Tc and P ≥ Pc: supercritical.',
  single:
    'One real root, named liquid or vapour by the phase identification parameter Π (G. Venkatarathnam, L. R. Oellrich, Fluid Phase Equilib. 301 (2011) 225–233): Π > 1 is liquid.',
  two: 'Three real roots: the smallest is the liquid candidate, the largest the vapour one (the middle one is mechanically unstable); the one with the lower fugacity coefficient (lower Gibbs energy) is stable.',
};

/** The regions where a cubic's measured error is worth a warning: all but the gas. */
const WARNED_REGIONS: Partial<Record<CubicRegion, string>> = {
  near_critical: 'Near-critical',
  liquid: 'Liquid',
  dense_fluid: 'Dense supercritical',
};

/**
 * The cubic's measured error in the region of (Tr, pr, phase) (data/cubic-errors.json, against the
 * reference equations we ship), as a warning; undefined in the gas, where it is small.
 */
function cubicErrorWarning(eos: CubicEos, tr: number, pr: number, label: PhaseLabel): string | undefined {
  const region = cubicRegion(tr, pr, label);
  const name = WARNED_REGIONS[region];
  const e = (cubicErrors.equations as CubicErrorTable)[eos.id][region];
  if (!name || !e) return undefined;
  const liquid = region === 'liquid' ? '; for a saturated liquid use service_liquid_density' : '';
  return `${name} region (${(cubicErrors.regions as typeof REGIONS)[region]}): ${eos.name} deviates here from reference equations by a median ${e.density.median_percent} % in density and Z (95th percentile ${e.density.p95_percent} %) and ${e.fugacity_coefficient.median_percent} % in φ (${e.fugacity_coefficient.p95_percent} %), measured against ${e.fluids} reference equations${liquid}.`;
}

/** The state, with a warning first for a temperature or pressure implausible in the unit it defaulted to. */
function run(args: EosStateArgs): EosStateResult {
  const air = findPseudoPure(args.compound_name);
  const compound = air ? undefined : findCompound(args.compound_name).compound;
  const result = air ? pseudoPureState(args, air) : stateFor(args, compound!);
  const melting = compound?.properties.melting_point?.value;
  const traps = [
    defaultUnitWarning('temperature', args.temperature, args.temperature_unit, melting),
    defaultUnitWarning('pressure', args.pressure, args.pressure_unit),
  ].filter((w) => w !== undefined);
  return traps.length ? { ...result, warnings: [...traps, ...result.warnings] } : result;
}

function stateFor(args: EosStateArgs, compound: Compound): EosStateResult {
  const fluid = referenceFluidByCas(compound.cas);
  const conditions = () =>
    readConditions(args.temperature, args.temperature_unit ?? 'K', args.pressure, args.pressure_unit ?? 'Pa');
  if (args.eos === 'reference' || (args.eos === undefined && fluid)) {
    if (!fluid) {
      throw new ToolError(
        'missing_data',
        `No reference equation of state is on hand for ${compound.name}; use a cubic equation (eos "peng_robinson").`,
        { compound: compound.name },
      );
    }
    return referenceState(compoundWithMass(compound), fluid, conditions());
  }
  const eos = CUBIC_EOS[eosId(args.eos)];
  const inputs = compoundInputs(compound, eos);
  const { temperature: t, pressure: p } = conditions();
  const state = pureState(eos, inputs.constants, t, p);
  const molarMass = compound.properties.molecular_weight!.value;

  const phaseOf = (name: PhaseName, root: EosPhase['root'], r: RootState, stable: boolean): EosPhase => {
    const phi = fugacityCoefficient(r.lnPhi, `the ${name} root`);
    return {
      phase: name,
      root,
      stable,
      ...volumeAndDensity(eos, r.z, r.molarVolume, molarMass, root),
      fugacity_coefficient: computed(phi, '', 'ln φ = Z − 1 − ln(Z − B) − (A/B)·I', eos.source, 'cubicEquation'),
      fugacity: computed(phi * p, 'Pa', 'f = φ·P', eos.source, 'cubicEquation'),
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

  const tr = t / inputs.constants.tc;
  const pr = p / inputs.constants.pc;
  const measured = cubicErrorWarning(eos, tr, pr, state.label);
  // The measured warning replaces the generic near-critical one.
  const warnings = [
    ...inputs.warnings,
    ...state.warnings.filter((w) => !(measured && w.startsWith(NEAR_CRITICAL_WARNING))),
  ];
  const melting = compound.properties.melting_point;
  if (melting && t < melting.value) {
    warnings.push(
      `${t} K is below the melting point of ${compound.name} (${melting.value} K): at equilibrium it is solid, and a cubic equation of state describes only the fluid (here a subcooled one).`,
    );
  }
  const liquidStable = state.stable === 'liquid' || state.label === 'liquid';
  // For Peng–Robinson and SRK the measured error says what their liquid caveat says, with numbers.
  if (!eos.usesAcentricFactor || (liquidStable && !measured)) warnings.unshift(eos.caveat);
  if (measured) warnings.unshift(measured);

  return {
    compound: compoundWithMass(compound),
    conditions: conditionsResult({ temperature: t, pressure: p }),
    reduced_temperature: ratio(tr),
    reduced_pressure: ratio(pr),
    equation_of_state: eosResult(eos),
    inputs: inputs.used,
    z_roots: state.zRoots.map((z) => toMethodPrecision(z, 'cubicEquation')),
    phase: state.label,
    phase_basis: basis,
    phases,
    warnings,
  };
}

export const eosStateTool = defineTool<EosStateArgs, EosStateResult>({
  name: 'service_eos_state',
  title: 'Equation of state: pure compound',
  description: [
    'State of a pure compound at temperature and pressure (default K, Pa; temperature_unit, pressure_unit)',
    'by eos "reference" (Helmholtz reference equation; default where one exists) or peng_robinson (default otherwise), srk, redlich_kwong, van_der_waals:',
    'stable phase and, per root, Z, molar volume, density, fugacity coefficient and fugacity; reference adds h, s, cp, cv, speed of sound.',
  ].join(' '),
  details: [
    'eos "reference" uses the fluid\'s reference multiparameter Helmholtz-energy equation of state (98 fluids, IAPWS-95 for water and Span–Wagner for CO2 among them); it is the default when the fluid has one. It gives the one stable phase with Z, molar volume, density, fugacity coefficient and fugacity, and its caloric properties: enthalpy h and entropy s (on the equation\'s own reference state), isobaric and isochoric heat capacities cp and cv, and the speed of sound.',
    `The cubic equations are ${CUBIC_EOS_DETAILS} They use the compound's critical temperature, critical pressure and (Peng–Robinson, SRK) acentric factor from the built-in data; Peng–Robinson is the default for a fluid without a reference equation.`,
    REFERENCE_FORM_DETAILS,
    'Air ("air", "atmosphere", CAS 132259-10-0) answers from its reference equation as a pseudo-pure fluid (E. W. Lemmon et al., J. Phys. Chem. Ref. Data 29 (2000) 331; CoolProp\'s Air.json): dry air of fixed composition (N2 0.7812, Ar 0.0092, O2 0.2096), given in compound.composition in place of a formula, molar mass 28.9586 g/mol. It has no saturation pressure: below its maxcondentherm (132.6312 K) it is vapour under its dew-point pressure and liquid over its bubble-point pressure (the file\'s equations for them), and a state between the two is refused (out_of_range), as is a cubic equation for it (is_mixture: pass its components to service_mixture_properties instead).',
    CUBIC_FORMS_DETAILS,
    'Arguments: compound_name (name, synonym, CAS number, formula, SMILES or InChIKey); temperature with temperature_unit (default K; °C, °F, R accepted); pressure (absolute) with pressure_unit (default Pa; kPa, MPa, bar, mbar, atm, psi, mmHg, torr accepted). A pressure under 1 kPa or a temperature under 20 K (or below the melting point) read in the default unit gets a warning naming the unit likely meant.',
    "The answer gives the conditions in SI (K, Pa), reduced temperature and pressure, the equation used (equation_of_state: its id, name and source), the critical constants used with their sources (inputs), z_roots (every real root Z > B of the cubic, ascending; of three, the middle one is mechanically unstable and never a phase) and phases: for the only root, or for the smallest (liquid) and largest (vapour) of three, the compressibility factor Z, molar volume (m3/mol), density (kg/m3), fugacity coefficient φ = f/P and fugacity (Pa), each marked stable or not. Each value's method gives its relation; the equation is named once, in equation_of_state.",
    'phase names the stable phase: the root with the lower fugacity coefficient (lower Gibbs energy) when there are two, "supercritical" above Tc and Pc, "liquid-like"/"vapor-like" within about 1% of the equation\'s saturation pressure; phase_basis says how it was decided. With "reference", the stable phase is the one on its side of the saturation pressure, found by phase equilibrium.',
    'warnings flag near-saturation ambiguity and van der Waals and Redlich–Kwong limits. Where a cubic answers near the critical point (0.9 ≤ Tr ≤ 1.1, 0.7 ≤ pr ≤ 1.5), in the liquid (Tr < 1) or in the dense supercritical fluid (Tr ≥ 1, pr ≥ 1), a warning gives its error there: median and 95th percentile in density (and Z) and in φ, measured against the reference equations on hand (npm run data:cubic-errors); in the gas none is given (a median under 1 % for Peng–Robinson and SRK). For a saturated liquid use service_liquid_density.',
    'Errors: missing_data when the compound lacks Tc, Pc or (for Peng–Robinson and SRK) ω, or has no reference equation when "reference" is asked for; out_of_range for temperatures at or below absolute zero, pressures above 1 GPa, and conditions outside the reference equation\'s range (a cubic equation answers there, less accurately).',
  ],
  argumentAliases: STATE_UNIT_ALIASES,
  inputSchema,
  outputSchema,
  example: { compound_name: 'propane', temperature: 298, pressure: 1, pressure_unit: 'bar' },
  run,
});
