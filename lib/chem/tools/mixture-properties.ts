/**
 * service_mixture_properties: properties of a mixture of known composition. Always: molar mass, Kay's
 * pseudo-critical temperature and pressure, mole-fraction-weighted acentric factor. With temperature
 * and pressure: the one-phase state from a cubic equation of state with van der Waals one-fluid mixing
 * (Z roots, molar volume, density, fugacity coefficient of each component). The science is ../eos.ts.
 *
 * Binary interaction parameters are given as a list of {i, j, value} with 0-based indices into
 * `components`: a list names only the pairs that have one (most are 0), cannot be asymmetric, and
 * an LLM writes it more reliably than an n×n matrix.
 */
import type { Compound } from '../compounds.ts';
import { CUBIC_EOS, type CubicEosId, kayPseudoCritical, type MixtureRootState, mixtureState } from '../eos.ts';
import { findCompound } from '../lookup.ts';
import { type ChemTool, type JsonSchema, ToolError } from '../tool.ts';
import { COMPOUND_NAME_ARGUMENT, defaultUnitWarning } from './computed-value.ts';
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

export const MIN_COMPONENTS = 2;
export const MAX_COMPONENTS = 20;
/** How far the mole fractions may sum from 1: rounding in what a person types, not a composition error. */
export const MOLE_FRACTION_SUM_TOLERANCE = 1e-6;

export interface MixtureComponentArg {
  compound_name: string;
  mole_fraction: number;
}

export interface KijArg {
  i: number;
  j: number;
  value: number;
}

export interface MixturePropertiesArgs {
  components: MixtureComponentArg[];
  temperature?: number;
  pressure?: number;
  eos?: CubicEosId;
  kij?: KijArg[];
  temperature_unit?: string;
  pressure_unit?: string;
}

interface ComponentFugacity {
  name: string;
  mole_fraction: number;
  fugacity_coefficient: Quantity;
  fugacity: Quantity;
}

export interface MixturePhase {
  phase: 'liquid' | 'vapor';
  root: 'smallest' | 'largest' | 'only';
  lower_gibbs_energy: boolean;
  compressibility_factor: Quantity;
  molar_volume: Quantity;
  density: Quantity;
  components: ComponentFugacity[];
}

export interface MixtureState {
  conditions: ReturnType<typeof conditionsResult>;
  pseudo_reduced_temperature: { value: number; unit: '' };
  pseudo_reduced_pressure: { value: number; unit: '' };
  equation_of_state: ReturnType<typeof eosResult>;
  mixing_rules: string;
  kij: KijArg[];
  z_roots: number[];
  phase: 'liquid' | 'vapor' | 'liquid-like' | 'vapor-like';
  phase_basis: string;
  phases: MixturePhase[];
}

export interface MixturePropertiesResult {
  components: {
    query: string;
    name: string;
    cas: string;
    formula: string;
    mole_fraction: number;
    molecular_weight: { value: number; unit: 'g/mol' };
    inputs: CompoundInputs['used'];
  }[];
  molar_mass: Quantity;
  pseudo_critical_temperature: Quantity;
  pseudo_critical_pressure: Quantity;
  pseudo_critical_pressure_bar: { value: number; unit: 'bar' };
  acentric_factor?: Quantity;
  state?: MixtureState;
  warnings: string[];
}

const KAY_SOURCE =
  'W. B. Kay, Density of Hydrocarbon Gases and Vapors at High Temperature and Pressure, Ind. Eng. Chem. 28 (1936) 1014–1019';
const KAY_NOTE =
  "Kay's rule gives a pseudo-critical point for corresponding-states methods, not the mixture's true critical point.";
const MIXING_RULES =
  'van der Waals one-fluid: a = Σi Σj xi·xj·(1 − kij)·√(ai·aj), b = Σi xi·bi; kij = 0 for every pair not given in kij';

const componentSchema: JsonSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'compound_name as given.' },
    name: { type: 'string' },
    cas: { type: 'string' },
    formula: { type: 'string' },
    mole_fraction: { type: 'number' },
    molecular_weight: simpleQuantitySchema('g/mol'),
    inputs: COMPOUND_INPUTS_SCHEMA,
  },
  required: ['query', 'name', 'cas', 'formula', 'mole_fraction', 'molecular_weight', 'inputs'],
  additionalProperties: false,
};

const kijSchema: JsonSchema = {
  type: 'object',
  properties: {
    i: {
      type: 'integer',
      title: 'I',
      minimum: 0,
      maximum: MAX_COMPONENTS - 1,
      description: '0-based index of one component in components.',
    },
    j: {
      type: 'integer',
      title: 'J',
      minimum: 0,
      maximum: MAX_COMPONENTS - 1,
      description: '0-based index of the other component (≠ i).',
    },
    value: {
      type: 'number',
      title: 'Value',
      minimum: -1,
      maximum: 1,
      description: 'kij = kji, dimensionless; typical magnitudes 0–0.15.',
    },
  },
  required: ['i', 'j', 'value'],
  additionalProperties: false,
};

const phaseSchema: JsonSchema = {
  type: 'object',
  description: 'One root of the mixture cubic taken as a phase of the given composition.',
  properties: {
    phase: { type: 'string', enum: ['liquid', 'vapor'] },
    root: { type: 'string', enum: ['smallest', 'largest', 'only'] },
    lower_gibbs_energy: {
      type: 'boolean',
      description: 'True for the root with the lower Σ xi·ln φi (residual Gibbs energy).',
    },
    ...VOLUME_AND_DENSITY_SCHEMA,
    components: {
      type: 'array',
      description: 'Each component in this phase, in the order given.',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          mole_fraction: { type: 'number' },
          fugacity_coefficient: quantitySchema('', 'Fugacity coefficient φi of the component in the mixture.'),
          fugacity: quantitySchema('Pa', 'Fugacity fi = xi·φi·P.'),
        },
        required: ['name', 'mole_fraction', 'fugacity_coefficient', 'fugacity'],
        additionalProperties: false,
      },
    },
  },
  required: ['phase', 'root', 'lower_gibbs_energy', 'compressibility_factor', 'molar_volume', 'density', 'components'],
  additionalProperties: false,
};

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    components: { type: 'array', items: componentSchema, minItems: MIN_COMPONENTS, maxItems: MAX_COMPONENTS },
    molar_mass: quantitySchema('g/mol', 'Mixture molar mass Σ xi·Mi.'),
    pseudo_critical_temperature: quantitySchema('K', "Kay's rule Tpc = Σ xi·Tci."),
    pseudo_critical_pressure: quantitySchema('Pa', "Kay's rule Ppc = Σ xi·Pci."),
    pseudo_critical_pressure_bar: simpleQuantitySchema('bar', 'Ppc in bar.'),
    acentric_factor: quantitySchema(
      '',
      'Mole-fraction-weighted acentric factor Σ xi·ωi (omitted when a component has none on record).',
    ),
    state: {
      type: 'object',
      description:
        'Present when temperature and pressure are given: the mixture as one phase of the given composition.',
      properties: {
        conditions: CONDITIONS_SCHEMA,
        pseudo_reduced_temperature: simpleQuantitySchema('', 'T/Tpc.'),
        pseudo_reduced_pressure: simpleQuantitySchema('', 'P/Ppc.'),
        equation_of_state: EOS_SCHEMA,
        mixing_rules: { type: 'string' },
        kij: {
          type: 'array',
          items: kijSchema,
          description: 'The binary interaction parameters used (pairs not listed: 0).',
        },
        z_roots: {
          type: 'array',
          items: { type: 'number' },
          minItems: 1,
          maxItems: 3,
          description: 'Every real root Z > B of the mixture cubic, ascending.',
        },
        phase: {
          type: 'string',
          enum: ['liquid', 'vapor', 'liquid-like', 'vapor-like'],
          description:
            'liquid/vapor: one root; liquid-like/vapor-like: the lower-Gibbs-energy root of two, the mixture may split into two phases.',
        },
        phase_basis: { type: 'string' },
        phases: { type: 'array', items: phaseSchema, minItems: 1, maxItems: 2 },
      },
      required: [
        'conditions',
        'pseudo_reduced_temperature',
        'pseudo_reduced_pressure',
        'equation_of_state',
        'mixing_rules',
        'kij',
        'z_roots',
        'phase',
        'phase_basis',
        'phases',
      ],
      additionalProperties: false,
    },
    warnings: { type: 'array', items: { type: 'string' } },
  },
  required: [
    'components',
    'molar_mass',
    'pseudo_critical_temperature',
    'pseudo_critical_pressure',
    'pseudo_critical_pressure_bar',
    'warnings',
  ],
  additionalProperties: false,
};

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_mixture_propertiesArguments',
  properties: {
    components: {
      type: 'array',
      title: 'Components',
      minItems: MIN_COMPONENTS,
      maxItems: MAX_COMPONENTS,
      description: `${MIN_COMPONENTS}–${MAX_COMPONENTS} distinct compounds with mole fractions in (0, 1] summing to 1 (within ${MOLE_FRACTION_SUM_TOLERANCE}).`,
      items: {
        type: 'object',
        properties: {
          compound_name: COMPOUND_NAME_ARGUMENT,
          mole_fraction: {
            type: 'number',
            title: 'Mole Fraction',
            exclusiveMinimum: 0,
            maximum: 1,
            description: 'Mole fraction xi, in (0, 1].',
          },
        },
        required: ['compound_name', 'mole_fraction'],
        additionalProperties: false,
      },
    },
    temperature: {
      type: 'number',
      title: 'Temperature',
      description:
        'Temperature in temperature_unit (default K). Give it with pressure for the equation-of-state state.',
    },
    pressure: {
      type: 'number',
      title: 'Pressure',
      exclusiveMinimum: 0,
      description: 'Absolute pressure in pressure_unit (default Pa). Give it with temperature.',
    },
    eos: EOS_ARGUMENT,
    kij: {
      type: 'array',
      title: 'Kij',
      maxItems: (MAX_COMPONENTS * (MAX_COMPONENTS - 1)) / 2,
      items: kijSchema,
      description:
        'Binary interaction parameters as a list of {i, j, value}, i and j being 0-based indices into components (kij = kji; each pair at most once). Pairs not listed have kij = 0. Needs temperature and pressure.',
    },
    temperature_unit: TEMPERATURE_UNIT_ARGUMENT,
    pressure_unit: PRESSURE_UNIT_ARGUMENT,
  },
  required: ['components'],
  additionalProperties: false,
};

function invalid(message: string, details?: Record<string, unknown>): never {
  throw new ToolError('invalid_arguments', message, details);
}

function readComposition(components: MixtureComponentArg[]): { compound: Compound; query: string; x: number }[] {
  if (components.length < MIN_COMPONENTS || components.length > MAX_COMPONENTS) {
    invalid(`A mixture has ${MIN_COMPONENTS} to ${MAX_COMPONENTS} components; got ${components.length}.`);
  }
  const resolved = components.map(({ compound_name, mole_fraction }, index) => {
    if (!(mole_fraction > 0 && mole_fraction <= 1))
      invalid(`components[${index}].mole_fraction must be in (0, 1]; got ${mole_fraction}.`);
    return { compound: findCompound(compound_name).compound, query: compound_name, x: mole_fraction };
  });
  resolved.forEach((c, i) => {
    const first = resolved.findIndex((other) => other.compound === c.compound);
    if (first !== i) {
      invalid(
        `components[${first}] "${resolved[first].query}" and components[${i}] "${c.query}" are both ${c.compound.name}; list each compound once with its total mole fraction.`,
      );
    }
  });
  const sum = resolved.reduce((s, c) => s + c.x, 0);
  if (Math.abs(sum - 1) > MOLE_FRACTION_SUM_TOLERANCE) {
    invalid(
      `The mole fractions sum to ${Number(sum.toPrecision(10))}; they must sum to 1 (within ${MOLE_FRACTION_SUM_TOLERANCE}). Normalise them (divide each by the sum) if that is what you meant.`,
      {
        sum,
      },
    );
  }
  return resolved;
}

/** Symmetric n×n matrix from the {i, j, value} list; refuses self pairs, indices beyond n and repeated pairs. */
function readKij(list: KijArg[], n: number): number[][] {
  const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const seen = new Set<string>();
  list.forEach(({ i, j, value }, k) => {
    if (!Number.isInteger(i) || !Number.isInteger(j) || i < 0 || j < 0 || i >= n || j >= n) {
      invalid(`kij[${k}]: i and j are 0-based indices into components, so 0 to ${n - 1} here; got i = ${i}, j = ${j}.`);
    }
    if (i === j) invalid(`kij[${k}]: i and j must differ (kii = 0 by definition); got ${i} twice.`);
    if (!(Math.abs(value) < 1)) invalid(`kij[${k}].value must lie between −1 and 1 (exclusive); got ${value}.`);
    const key = `${Math.min(i, j)},${Math.max(i, j)}`;
    if (seen.has(key)) invalid(`kij[${k}]: the pair (${i}, ${j}) is given more than once (kij = kji).`);
    seen.add(key);
    matrix[i][j] = value;
    matrix[j][i] = value;
  });
  return matrix;
}

const PHASE_BASIS = {
  single:
    'One real root, named liquid or vapour by the phase identification parameter Π (G. Venkatarathnam, L. R. Oellrich, Fluid Phase Equilib. 301 (2011) 225–233): Π > 1 is liquid.',
  two: 'Three real roots: the smallest is the liquid candidate, the largest the vapour candidate (the middle one is mechanically unstable); the label names the candidate with the lower residual Gibbs energy Σ xi·ln φi.',
};

function run(args: MixturePropertiesArgs): MixturePropertiesResult {
  const hasT = args.temperature !== undefined;
  const hasP = args.pressure !== undefined;
  if (hasT !== hasP)
    invalid(
      `Give both temperature and pressure for the equation-of-state state, or neither; got only ${hasT ? 'temperature' : 'pressure'}.`,
    );
  if (args.kij !== undefined && !hasT)
    invalid('kij only affects the equation-of-state state: give temperature and pressure too, or leave kij out.');

  const eos = CUBIC_EOS[eosId(args.eos)];
  const composition = readComposition(args.components);
  const x = composition.map((c) => c.x);
  const kij = readKij(args.kij ?? [], composition.length);
  // Kay's rule needs Tc and Pc; the equation's own needs (ω for PR and SRK) count only when the state is asked for.
  const needs = hasT ? eos : CUBIC_EOS.redlich_kwong;
  const inputs = composition.map((c) => compoundInputs(c.compound, needs, true));
  const warnings = inputs.flatMap((input) => input.warnings);

  const molarMass = composition.reduce((sum, c) => sum + c.x * c.compound.properties.molecular_weight!.value, 0);
  const { tpc, ppc } = kayPseudoCritical(
    inputs.map((input) => input.constants),
    x,
  );
  const omegas = composition.map((c) => c.compound.properties.acentric_factor);
  const withoutOmega = composition.filter((_, i) => omegas[i] === undefined).map((c) => c.compound.name);
  if (withoutOmega.length > 0)
    warnings.push(`No mixture acentric factor: no acentric factor on record for ${withoutOmega.join(', ')}.`);

  const result: MixturePropertiesResult = {
    components: composition.map((c, i) => ({
      query: c.query,
      name: c.compound.name,
      cas: c.compound.cas,
      formula: c.compound.formula,
      mole_fraction: c.x,
      molecular_weight: { value: c.compound.properties.molecular_weight!.value, unit: 'g/mol' },
      inputs: inputs[i].used,
    })),
    molar_mass: {
      value: molarMass,
      unit: 'g/mol',
      method: 'Σ xi·Mi, Mi from the formulas',
      source: composition[0].compound.properties.molecular_weight!.source,
    },
    pseudo_critical_temperature: {
      value: tpc,
      unit: 'K',
      method: "Kay's rule: Tpc = Σ xi·Tci",
      source: KAY_SOURCE,
      warnings: [KAY_NOTE],
    },
    pseudo_critical_pressure: {
      value: ppc,
      unit: 'Pa',
      method: "Kay's rule: Ppc = Σ xi·Pci",
      source: KAY_SOURCE,
      warnings: [KAY_NOTE],
    },
    pseudo_critical_pressure_bar: { value: ppc / 1e5, unit: 'bar' },
    ...(withoutOmega.length === 0
      ? {
          acentric_factor: {
            value: omegas.reduce((sum, w, i) => sum + x[i] * w!.value, 0),
            unit: '',
            method: "mole-fraction average Σ xi·ωi (the usual pseudo-critical companion of Kay's rule)",
            source: KAY_SOURCE,
          },
        }
      : {}),
    warnings,
  };
  if (!hasT) return result;

  const conditions = readConditions(
    args.temperature!,
    args.temperature_unit ?? 'K',
    args.pressure!,
    args.pressure_unit ?? 'Pa',
  );
  const { temperature: t, pressure: p } = conditions;
  for (const trap of [
    defaultUnitWarning('temperature', args.temperature!, args.temperature_unit, 'temperature_unit'),
    defaultUnitWarning('pressure', args.pressure!, args.pressure_unit, 'pressure_unit'),
  ])
    if (trap) warnings.unshift(trap);
  const state = mixtureState(
    eos,
    inputs.map((input) => input.constants),
    x,
    kij,
    t,
    p,
  );
  const source = eosSource(eos);
  const phaseOf = (
    phase: MixturePhase['phase'],
    root: MixturePhase['root'],
    r: MixtureRootState,
    lower: boolean,
  ): MixturePhase => ({
    phase,
    root,
    lower_gibbs_energy: lower,
    ...volumeAndDensity(eos, r.z, r.molarVolume, molarMass, root),
    components: composition.map((c, k) => {
      const phi = fugacityCoefficient(r.lnPhiComponents[k], `${c.compound.name} in the ${phase} root`);
      return {
        name: c.compound.name,
        mole_fraction: c.x,
        fugacity_coefficient: {
          value: phi,
          unit: '',
          method: `${eos.name} with ${MIXING_RULES}: ln φk = (bk/b)(Z − 1) − ln(Z − B) − (A/B)(2·Σj xj·akj/a − bk/b)·I`,
          source,
        },
        fugacity: { value: c.x * phi * p, unit: 'Pa', method: 'fk = xk·φk·P', source },
      };
    }),
  });

  let phases: MixturePhase[];
  if (state.single) {
    phases = [phaseOf(state.label === 'liquid' ? 'liquid' : 'vapor', 'only', state.single, true)];
  } else {
    phases = [
      phaseOf('liquid', 'smallest', state.liquid!, state.stable === 'liquid'),
      phaseOf('vapor', 'largest', state.vapor!, state.stable === 'vapor'),
    ];
  }

  warnings.push(...state.warnings);
  const liquidLike = state.label === 'liquid' || state.label === 'liquid-like';
  if (!eos.usesAcentricFactor || liquidLike) warnings.unshift(eos.caveat);
  const subcritical = composition.filter((_, i) => t < inputs[i].constants.tc).map((c) => c.compound.name);
  if (state.liquid || subcritical.length > 0) {
    warnings.push(
      `One-phase calculation at the given composition: phase stability is not tested and no flash is done${subcritical.length > 0 ? ` (below the critical temperature of ${subcritical.join(', ')})` : ''}; between its bubble and dew points the mixture splits into a liquid and a vapour of other compositions.`,
    );
  }
  if (state.liquid) {
    warnings.push(
      `Two candidate roots: the ${state.stable} root has the lower Gibbs energy of the two as one phase, but the mixture may well be two-phase here.`,
    );
  }

  result.state = {
    conditions: conditionsResult(conditions),
    pseudo_reduced_temperature: { value: t / tpc, unit: '' },
    pseudo_reduced_pressure: { value: p / ppc, unit: '' },
    equation_of_state: eosResult(eos),
    mixing_rules: MIXING_RULES,
    kij: (args.kij ?? []).map(({ i, j, value }) => ({ i, j, value })),
    z_roots: state.zRoots,
    phase: state.label,
    phase_basis: state.single ? PHASE_BASIS.single : PHASE_BASIS.two,
    phases,
  };
  return result;
}

export const mixturePropertiesTool = {
  name: 'service_mixture_properties',
  title: 'Mixture properties and cubic equation of state',
  description: [
    `Properties of a mixture of ${MIN_COMPONENTS}–${MAX_COMPONENTS} compounds of known composition.`,
    `components: [{compound_name, mole_fraction}], each compound once, mole fractions in (0, 1] summing to 1 within ${MOLE_FRACTION_SUM_TOLERANCE} (not normalised for you).`,
    "Always returns the mixture molar mass (g/mol), Kay's-rule (1936) pseudo-critical temperature (K) and pressure (Pa, also bar), and the mole-fraction-weighted acentric factor, with each component's data and sources.",
    'With temperature (temperature_unit, default K; °C, °F, R accepted) and pressure (absolute; pressure_unit, default Pa; kPa, MPa, bar, mbar, atm, psi, mmHg, torr accepted) it also returns state:',
    'the one-phase state from a cubic equation of state (eos: "peng_robinson" default, "srk", "redlich_kwong", "van_der_waals") with van der Waals one-fluid mixing (a = ΣΣ xi·xj·(1 − kij)·√(ai·aj), b = Σ xi·bi):',
    "all real Z roots, and for the only root or the liquid and vapour candidates of three: Z, molar volume (m3/mol), density (kg/m3), and each component's fugacity coefficient and fugacity (Pa).",
    'kij: optional list of {i, j, value}, i and j 0-based indices into components, kij = kji; unlisted pairs are 0.',
    'It does not compute phase equilibrium: warnings say when the mixture may split into two phases, and flag van der Waals, Redlich–Kwong and liquid-density limitations.',
  ].join(' '),
  inputSchema,
  outputSchema,
  run,
} satisfies ChemTool<MixturePropertiesArgs, MixturePropertiesResult>;
