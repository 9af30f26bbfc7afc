/**
 * service_mixture_properties: properties of a mixture of known composition. Always: molar mass, Kay's
 * pseudo-critical temperature and pressure, mole-fraction-weighted acentric factor. With temperature
 * and pressure: the one-phase state from a cubic equation of state with van der Waals one-fluid mixing
 * (Z roots, molar volume, density, fugacity coefficient of each component). The science is ../eos.ts;
 * ./eos-shared.ts builds and rounds the values.
 *
 * A component named "air" stands for the composition of Lemmon et al. (2000)'s air (../pseudo-pure.ts),
 * each of its compounds at its share of the component's mole fraction; the answer says so.
 *
 * Binary interaction parameters are given as a list of {i, j, value} with 0-based indices into
 * `components`: a list names only the pairs that have one (most are 0), cannot be asymmetric, and
 * an LLM writes it more reliably than an n×n matrix.
 */
import type { Compound } from '../compounds.ts';
import { CUBIC_EOS, type CubicEosId, kayPseudoCritical, type MixtureRootState, mixtureState } from '../eos.ts';
import { findCompound } from '../lookup.ts';
import { toMethodPrecision } from '../precision.ts';
import { findPseudoPure } from '../pseudo-pure.ts';
import { defineTool, type JsonSchema, ToolError } from '../tool.ts';
import { answerSchema, NUMBER, objectOf, QUANTITY, STRING, WARNINGS } from './answer-schema.ts';
import {
  COMPOUND_NAME_ARGUMENT,
  defaultUnitWarning,
  PRESSURE_UNIT_ARGUMENT,
  STATE_UNIT_ALIASES,
  TEMPERATURE_UNIT_ARGUMENT,
} from './computed-value.ts';
import {
  COMPOUND_INPUTS_SCHEMA,
  CONDITIONS_SCHEMA,
  type CompoundInputs,
  CUBIC_EOS_DETAILS,
  CUBIC_FORMS_DETAILS,
  compoundInputs,
  computed,
  conditionsResult,
  EOS_ARGUMENT,
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

const MIN_COMPONENTS = 2;
const MAX_COMPONENTS = 20;
/** How far the mole fractions may sum from 1: rounding in what a person types, not a composition error. */
const MOLE_FRACTION_SUM_TOLERANCE = 1e-6;

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

/** A component's fugacity in one root; its mole fraction is in the answer's components. */
interface ComponentFugacity {
  name: string;
  fugacity_coefficient: Quantity;
  fugacity: Quantity;
}

interface MixturePhase {
  phase: 'liquid' | 'vapor';
  root: 'smallest' | 'largest' | 'only';
  lower_gibbs_energy: boolean;
  compressibility_factor: Quantity;
  molar_volume: Quantity;
  density: Quantity;
  components: ComponentFugacity[];
}

interface MixtureState {
  conditions: ReturnType<typeof conditionsResult>;
  pseudo_reduced_temperature: SimpleQuantity;
  pseudo_reduced_pressure: SimpleQuantity;
  equation_of_state: ReturnType<typeof eosResult>;
  /** The kij used, by component name. */
  mixing_rules: string;
  z_roots: number[];
  phase: 'liquid' | 'vapor' | 'liquid-like' | 'vapor-like';
  phase_basis: string;
  phases: MixturePhase[];
}

interface MixturePropertiesResult {
  components: {
    /** compound_name as given, when it is not the name it was read as. */
    query?: string;
    name: string;
    cas: string;
    formula: string;
    mole_fraction: number;
    molecular_weight: SimpleQuantity;
    inputs: CompoundInputs['used'];
  }[];
  molar_mass: Quantity;
  pseudo_critical_temperature: Quantity;
  pseudo_critical_pressure: Quantity;
  pseudo_critical_pressure_bar: SimpleQuantity;
  acentric_factor?: Quantity;
  state?: MixtureState;
  warnings: string[];
}

const KAY_SOURCE =
  'W. B. Kay, Density of Hydrocarbon Gases and Vapors at High Temperature and Pressure, Ind. Eng. Chem. 28 (1936) 1014–1019';
/** Once, on Tpc: it holds for the pair. */
const KAY_NOTE =
  "Tpc and Ppc are a pseudo-critical point for corresponding-states methods, not the mixture's critical point.";
const MIXING_RULES = 'van der Waals one-fluid: a = Σi Σj xi·xj·(1 − kij)·√(ai·aj), b = Σi xi·bi';

/** The mixing rules with the kij used, by component name ("kij: methane–ethane 0.003, other pairs 0"). */
function mixingRules(kij: KijArg[], names: string[]): string {
  if (kij.length === 0) return `${MIXING_RULES}; kij = 0 for every pair`;
  const pairs = kij.map(({ i, j, value }) => `${names[Math.min(i, j)]}–${names[Math.max(i, j)]} ${value}`);
  return `${MIXING_RULES}; kij: ${pairs.join(', ')}, other pairs 0`;
}

const kijArgument: JsonSchema = {
  type: 'object',
  properties: {
    i: { type: 'integer', minimum: 0 },
    j: { type: 'integer', minimum: 0 },
    value: { type: 'number', minimum: -1, maximum: 1 },
  },
  required: ['i', 'j', 'value'],
  additionalProperties: false,
};

/** One root of the mixture cubic taken as a phase of the given composition. */
const phaseSchema = quantitiesObject(['compressibility_factor', 'molar_volume', 'density'], {
  phase: { enum: ['liquid', 'vapor'] },
  root: { enum: ['smallest', 'largest', 'only'] },
  lower_gibbs_energy: { type: 'boolean' },
  components: { type: 'array', items: quantitiesObject(['fugacity_coefficient', 'fugacity'], { name: STRING }) },
});

const outputSchema = answerSchema(
  {
    components: {
      type: 'array',
      items: quantitiesObject(
        ['molecular_weight'],
        {
          query: STRING,
          name: STRING,
          cas: STRING,
          formula: STRING,
          mole_fraction: NUMBER,
          inputs: COMPOUND_INPUTS_SCHEMA,
        },
        ['query'],
      ),
    },
    molar_mass: QUANTITY,
    pseudo_critical_temperature: QUANTITY,
    pseudo_critical_pressure: QUANTITY,
    pseudo_critical_pressure_bar: QUANTITY,
    acentric_factor: QUANTITY,
    state: objectOf({
      conditions: CONDITIONS_SCHEMA,
      pseudo_reduced_temperature: QUANTITY,
      pseudo_reduced_pressure: QUANTITY,
      equation_of_state: EOS_SCHEMA,
      mixing_rules: STRING,
      z_roots: { type: 'array', items: NUMBER },
      phase: { enum: ['liquid', 'vapor', 'liquid-like', 'vapor-like'] },
      phase_basis: STRING,
      phases: { type: 'array', items: phaseSchema },
    }),
    warnings: WARNINGS,
  },
  ['acentric_factor', 'state'],
);

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_mixture_propertiesArguments',
  properties: {
    components: {
      type: 'array',
      title: 'Components',
      minItems: 1,
      maxItems: MAX_COMPONENTS,
      description: 'Distinct compounds; mole fractions sum to 1.',
      items: {
        type: 'object',
        properties: {
          compound_name: COMPOUND_NAME_ARGUMENT,
          mole_fraction: { type: 'number', title: 'Mole Fraction', exclusiveMinimum: 0, maximum: 1 },
        },
        required: ['compound_name', 'mole_fraction'],
        additionalProperties: false,
      },
    },
    temperature: { type: 'number', title: 'Temperature', description: 'In temperature_unit; give with pressure.' },
    pressure: {
      type: 'number',
      title: 'Pressure',
      exclusiveMinimum: 0,
      description: 'Absolute, in pressure_unit; give with temperature.',
    },
    eos: EOS_ARGUMENT,
    kij: {
      type: 'array',
      title: 'Kij',
      maxItems: (MAX_COMPONENTS * (MAX_COMPONENTS - 1)) / 2,
      items: kijArgument,
      description: '{i, j, value}: 0-based indices into components; unlisted pairs 0.',
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

interface Resolved {
  compound: Compound;
  query: string;
  x: number;
  /** Part of a component named "air". */
  fromAir?: true;
}

/** The components as compounds, air taken apart; `notes` says how air was read. */
function readComposition(components: MixtureComponentArg[]): { composition: Resolved[]; notes: string[] } {
  const notes: string[] = [];
  const given = components.flatMap(({ compound_name, mole_fraction }, index): Resolved[] => {
    if (!(mole_fraction > 0 && mole_fraction <= 1))
      invalid(`components[${index}].mole_fraction must be in (0, 1]; got ${mole_fraction}.`);
    const air = findPseudoPure(compound_name);
    if (!air) return [{ compound: findCompound(compound_name).compound, query: compound_name, x: mole_fraction }];
    const parts = air.composition.components;
    notes.push(
      `components[${index}] "${compound_name}" (x = ${mole_fraction}) is taken as the air of Lemmon et al. (2000): ${parts.map((c) => `${c.name} ${c.mole_fraction}`).join(', ')} (mole fractions; ${air.composition.source}), each times ${mole_fraction}.`,
    );
    return parts.map((c) => ({
      compound: findCompound(c.cas).compound,
      query: compound_name,
      x: mole_fraction * c.mole_fraction,
      fromAir: true,
    }));
  });
  // A compound named twice is refused, unless one of the two came from air (air plus oxygen is enriched air).
  const resolved: Resolved[] = [];
  for (const c of given) {
    const first = resolved.find((other) => other.compound === c.compound);
    if (!first) resolved.push({ ...c });
    else if (first.fromAir || c.fromAir) first.x += c.x;
    else {
      invalid(
        `components "${first.query}" and "${c.query}" are both ${c.compound.name}; list each compound once with its total mole fraction.`,
      );
    }
  }
  if (resolved.length < MIN_COMPONENTS || resolved.length > MAX_COMPONENTS) {
    invalid(
      `A mixture has ${MIN_COMPONENTS} to ${MAX_COMPONENTS} distinct compounds; got ${resolved.length}${resolved.length === 1 ? ' (for one compound, use service_eos_state)' : ''}.`,
    );
  }
  const sum = resolved.reduce((s, c) => s + c.x, 0);
  if (Math.abs(sum - 1) > MOLE_FRACTION_SUM_TOLERANCE) {
    invalid(
      `The mole fractions sum to ${Number(sum.toPrecision(10))}; they must sum to 1 (within ${MOLE_FRACTION_SUM_TOLERANCE}). Normalise them (divide each by the sum) if that is what you meant.`,
      {
        sum,
      },
    );
  }
  return { composition: resolved, notes };
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

/** Each component's φ in a root; state names the equation and mixing rules once. */
const PHI_RELATION = 'ln φk = (bk/b)(Z − 1) − ln(Z − B) − (A/B)(2·Σj xj·akj/a − bk/b)·I';

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
  const { composition, notes } = readComposition(args.components);
  const x = composition.map((c) => c.x);
  const kij = readKij(args.kij ?? [], composition.length);
  // Kay's rule needs Tc and Pc; the equation's own needs (ω for PR and SRK) count only when the state is asked for.
  const needs = hasT ? eos : CUBIC_EOS.redlich_kwong;
  const inputs = composition.map((c) => compoundInputs(c.compound, needs, true));
  const warnings = [...notes, ...inputs.flatMap((input) => input.warnings)];

  const molarMass = composition.reduce((sum, c) => sum + c.x * c.compound.properties.molecular_weight!.value, 0);
  const { tpc, ppc } = kayPseudoCritical(
    inputs.map((input) => input.constants),
    x,
  );
  const omegas = composition.map((c) => c.compound.properties.acentric_factor);
  const withoutOmega = composition.filter((_, i) => omegas[i] === undefined).map((c) => c.compound.name);
  if (withoutOmega.length > 0)
    warnings.push(`No mixture acentric factor: no acentric factor on record for ${withoutOmega.join(', ')}.`);

  // Kay's rule and the mean ω are corresponding-states rules: rounded as correlations. The molar mass is
  // exact arithmetic on formula masses, so it keeps its digits (the answer caps them at 10).
  const kay = (value: number, unit: string, method: string) => computed(value, unit, method, KAY_SOURCE, 'correlation');
  const pseudoCriticalPressure = kay(ppc, 'Pa', "Kay's rule: Ppc = Σ xi·Pci");
  const result: MixturePropertiesResult = {
    components: composition.map((c, i) => ({
      ...(c.query === c.compound.name ? {} : { query: c.query }),
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
      method: 'Σ xi·Mi',
      source: composition[0].compound.properties.molecular_weight!.source,
    },
    pseudo_critical_temperature: { ...kay(tpc, 'K', "Kay's rule: Tpc = Σ xi·Tci"), note: KAY_NOTE },
    pseudo_critical_pressure: pseudoCriticalPressure,
    // The same rounded value in bar, so the two agree to every digit shown.
    pseudo_critical_pressure_bar: { value: pseudoCriticalPressure.value / 1e5, unit: 'bar' },
    ...(withoutOmega.length === 0
      ? {
          acentric_factor: kay(
            omegas.reduce((sum, w, i) => sum + x[i] * w!.value, 0),
            '',
            "Σ xi·ωi, the mole-fraction average used with Kay's rule",
          ),
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
    defaultUnitWarning('temperature', args.temperature!, args.temperature_unit),
    defaultUnitWarning('pressure', args.pressure!, args.pressure_unit),
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
        fugacity_coefficient: computed(phi, '', PHI_RELATION, eos.source, 'cubicEquation'),
        fugacity: computed(c.x * phi * p, 'Pa', 'fk = xk·φk·P', eos.source, 'cubicEquation'),
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
    pseudo_reduced_temperature: ratio(t / tpc),
    pseudo_reduced_pressure: ratio(p / ppc),
    equation_of_state: eosResult(eos),
    mixing_rules: mixingRules(
      args.kij ?? [],
      composition.map((c) => c.compound.name),
    ),
    z_roots: state.zRoots.map((z) => toMethodPrecision(z, 'cubicEquation')),
    phase: state.label,
    phase_basis: state.single ? PHASE_BASIS.single : PHASE_BASIS.two,
    phases,
  };
  return result;
}

export const mixturePropertiesTool = defineTool<MixturePropertiesArgs, MixturePropertiesResult>({
  name: 'service_mixture_properties',
  title: 'Mixture properties and cubic equation of state',
  description: [
    `Mixture of ${MIN_COMPONENTS}–${MAX_COMPONENTS} compounds (components [{compound_name, mole_fraction}], fractions summing to 1): molar mass, Kay's pseudo-critical T and P, mean acentric factor;`,
    'with temperature and pressure (default K, Pa), the one-phase state by a cubic eos (default peng_robinson, optional kij): Z, molar volume, density, component fugacities. No flash.',
  ].join(' '),
  details: [
    `components: [{compound_name, mole_fraction}], ${MIN_COMPONENTS} to ${MAX_COMPONENTS} compounds, each once (the same compound under two names is refused), mole fractions in (0, 1] summing to 1 within ${MOLE_FRACTION_SUM_TOLERANCE}; they are not normalised for you.`,
    'A component "air" (or "atmosphere") stands for the air of Lemmon et al. (2000): nitrogen 0.7812, argon 0.0092, oxygen 0.2096 (mole fractions, from the mixture table), each times the component\'s mole fraction; a warning says so, and the answer lists the three with query "air". So [{"compound_name": "air", "mole_fraction": 1}] alone is air, and air plus oxygen is enriched air (the fractions add). kij indices refer to the answer\'s components, air taken apart. Other mixture names (natural gas, R-410A, gasoline…) are is_mixture, whose message gives the composition on record to pass instead.',
    "Always returned: the mixture molar mass Σ xi·Mi (g/mol), Kay's-rule (1936) pseudo-critical temperature Tpc = Σ xi·Tci (K) and pressure Ppc = Σ xi·Pci (Pa, also bar) — a pseudo-critical point for corresponding-states methods, not the mixture's true critical point — and the mole-fraction-weighted acentric factor Σ xi·ωi (omitted, with a warning, when a component has none on record), with each component's data (name, CAS, formula, mole fraction, molecular weight, and query: the compound_name given, when it is not the name) and the critical constants used with their sources.",
    `With temperature (temperature_unit, default K; °C, °F, R accepted) and pressure (absolute; pressure_unit, default Pa; kPa, MPa, bar, mbar, atm, psi, mmHg, torr accepted), given together, the answer also has state: the one-phase state at the given composition from a cubic equation of state (eos: ${CUBIC_EOS_DETAILS}) with van der Waals one-fluid mixing rules (a = Σi Σj xi·xj·(1 − kij)·√(ai·aj), b = Σi xi·bi). A pressure under 1 kPa or a temperature under 20 K read in the default unit gets a warning naming the unit likely meant.`,
    'state gives the conditions in SI (K, Pa), the pseudo-reduced temperature T/Tpc and pressure P/Ppc, the equation (id, name and source), the mixing rules with the kij used (by component name), z_roots (every real root Z > B of the mixture cubic, ascending) and phases: for the only root, or for the liquid (smallest) and vapour (largest) candidates of three, Z, molar volume (m3/mol), density (kg/m3), and for each component, in the order given, its fugacity coefficient φi and fugacity fi = xi·φi·P (Pa). lower_gibbs_energy marks the root with the lower Σ xi·ln φi (residual Gibbs energy). phase is liquid or vapor for one root; liquid-like or vapor-like names the lower-Gibbs-energy root of two, where the mixture may split into two phases.',
    'kij: optional list of {i, j, value}, i and j 0-based indices into components (i ≠ j, each pair at most once, kij = kji), value between −1 and 1 (typical magnitudes 0–0.15); pairs not listed have kij = 0. A list names only the pairs that have one and cannot be asymmetric. kij needs temperature and pressure.',
    `${CUBIC_FORMS_DETAILS} For a component k of a mixture, ln φk = (bk/b)(Z − 1) − ln(Z − B) − (A/B)(2·Σj xj·akj/a − bk/b)·I (Smith, Van Ness & Abbott ch. 14).`,
    'It does not compute phase equilibrium: phase stability is not tested and no flash is done. Warnings say when the mixture may split into two phases, and flag van der Waals, Redlich–Kwong and liquid-density limitations.',
    'Errors: invalid_arguments for a composition that does not sum to 1, a compound listed twice, fewer than two compounds, temperature without pressure (or the reverse), kij without them, or a bad kij entry; compound_not_found; is_mixture; missing_data when a component lacks Tc or Pc, or ω for Peng–Robinson and SRK; out_of_range for temperatures at or below absolute zero and pressures above 1 GPa.',
  ],
  argumentAliases: STATE_UNIT_ALIASES,
  inputSchema,
  outputSchema,
  example: {
    components: [
      { compound_name: 'methane', mole_fraction: 0.5 },
      { compound_name: 'ethane', mole_fraction: 0.5 },
    ],
  },
  run,
});
