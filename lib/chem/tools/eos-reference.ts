/**
 * service_eos_state with eos "reference": the state of a pure fluid at (T, p) from its reference
 * equation of state (../helmholtz/), in the same shape as the cubic answer: one phase (the stable one:
 * liquid above the saturation pressure, vapour below, supercritical above Tc and pc), its Z, volume,
 * density, fugacity, and the caloric properties only a Helmholtz equation gives (h, s, cp, cv, w).
 * Air, a pseudo-pure fluid (../pseudo-pure.ts), answers the same way, its phase set by its dew- and
 * bubble-point pressures instead of a saturation pressure.
 */
import type { ReferenceFluid } from '../helmholtz/fluid-file.ts';
import { referenceMethod } from '../helmholtz/fluids.ts';
import {
  densityAt,
  type PseudoPurePhase,
  pseudoPurePhase,
  saturationAtTemperature,
  stateAt,
} from '../helmholtz/state.ts';
import { type PseudoPureFluid, pseudoPureRefusal, pseudoPureSummary } from '../pseudo-pure.ts';
import { ToolError } from '../tool.ts';
import { type Conditions, computed, conditionsResult, ratio, readConditions } from './eos-shared.ts';
import type { EosPhase, EosStateArgs, EosStateResult, PhaseName } from './eos-state.ts';

/** Pa: below this the equation is not evaluated (δ underflows; the fluid is an ideal gas to every digit). */
const MIN_PRESSURE = 1e-6;

/** How every reference equation is used, for the docs: answers name the fluid's equation and give each relation. */
export const REFERENCE_FORM_DETAILS =
  'A reference equation gives the reduced Helmholtz energy α(δ, τ) = α⁰ + αʳ, δ = ρ/ρr, τ = Tr/T; the density is solved from p = ρRT(1 + δ·∂αʳ/∂δ) at T, and the other properties follow from α and its derivatives (property relations: W. Wagner, A. Pruß, J. Phys. Chem. Ref. Data 31 (2002) 387; functional forms: E. W. Lemmon, R. Span, J. Chem. Eng. Data 51 (2006) 785).';

/** Air's state from its reference equation; a cubic equation is refused (a mixture has no one Tc, Pc and ω). */
export function pseudoPureState(args: EosStateArgs, air: PseudoPureFluid): EosStateResult {
  if (args.eos !== undefined && args.eos !== 'reference') {
    throw pseudoPureRefusal(air, `a cubic equation for one compound (eos "${args.eos}") does not apply`);
  }
  const conditions = readConditions(
    args.temperature,
    args.temperature_unit ?? 'K',
    args.pressure,
    args.pressure_unit ?? 'Pa',
  );
  const compound = {
    ...pseudoPureSummary(air),
    molecular_weight: { value: air.molecularWeight.value, unit: air.molecularWeight.unit },
  };
  return referenceState(compound, air.fluid, conditions);
}

/** Phase basis and warnings of a pseudo-pure fluid's state, from where p lies against its dew and bubble points. */
function pseudoPureBasis(fluid: ReferenceFluid, at: PseudoPurePhase, t: number, p: number) {
  const bounds = fluid.pseudoPure!;
  const round = (x: number) => Number(x.toPrecision(6));
  if (at.dewPressure === undefined || at.bubblePressure === undefined) {
    return {
      basis: `Above the maxcondentherm of ${fluid.name} (${bounds.maxcondentherm.temperature} K), the highest temperature at which its liquid and vapour coexist: one fluid phase, supercritical at or above its critical pressure (${fluid.critical.pressure} Pa).`,
      warnings: [],
    };
  }
  const [name, bound] = at.phase === 'liquid' ? ['bubble', at.bubblePressure] : ['dew', at.dewPressure];
  const near = Math.abs(p / bound - 1) * 100 < bounds.uncertaintyPercent;
  return {
    basis: `Below its maxcondentherm (${bounds.maxcondentherm.temperature} K) ${fluid.name}, a mixture, is vapour under its dew-point pressure and liquid over its bubble-point pressure, at ${t} K ${round(at.dewPressure)} and ${round(at.bubblePressure)} Pa (the fluid file's equations for them): ${at.phase}.`,
    warnings: near
      ? [
          `The pressure is within ${bounds.uncertaintyPercent} % (the stated uncertainty of the ${name}-point equation) of the ${name}-point pressure, ${round(bound)} Pa: the state may be two-phase.`,
        ]
      : [],
  };
}

/** The state at `conditions` from the fluid's reference equation; RangeErrors of the solvers become out_of_range. */
export function referenceState(
  compound: EosStateResult['compound'],
  fluid: ReferenceFluid,
  conditions: Conditions,
): EosStateResult {
  const { temperature: t, pressure: p } = conditions;
  const tc = fluid.critical.temperature;
  const pc = fluid.critical.pressure;
  let density: number;
  let saturation: number | undefined;
  let pseudoPure: PseudoPurePhase | undefined;
  let state: ReturnType<typeof stateAt>;
  try {
    // Far below any physical use the terms' powers of δ underflow; the ideal gas is exact there.
    if (p < MIN_PRESSURE) {
      throw new RangeError(
        `${p} Pa is below the ${MIN_PRESSURE} Pa the reference equation is evaluated at (an ideal gas there)`,
      );
    }
    if (fluid.pseudoPure) pseudoPure = pseudoPurePhase(fluid, t, p);
    else saturation = t < tc ? saturationAtTemperature(fluid, t).pressure : undefined;
    density = densityAt(fluid, t, p);
    state = stateAt(fluid, t, density);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // A mixture has no cubic equation of its own to fall back on.
    const fallback = fluid.pseudoPure
      ? ''
      : ' A cubic equation (eos "peng_robinson") answers outside it, less accurately.';
    throw new ToolError('out_of_range', `${error.message}.${fallback}`, { temperature: t, pressure: p });
  }
  const phase: PhaseName =
    pseudoPure?.phase ??
    (saturation === undefined ? (p >= pc ? 'supercritical' : 'vapor') : p > saturation ? 'liquid' : 'vapor');
  const source = fluid.citation;
  // The equation is named once, in equation_of_state; each value gives only its relation.
  const quantity = (value: number, unit: string, relation: string) =>
    computed(value, unit, relation, source, 'referenceEquation');
  const molarMass = fluid.molarMass;
  const only: EosPhase = {
    phase,
    root: 'only',
    stable: true,
    compressibility_factor: quantity(state.compressibility, '', 'Z = 1 + δ·∂αʳ/∂δ'),
    molar_volume: quantity(1 / density, 'm3/mol', 'V = 1/ρ'),
    density: quantity(density * molarMass, 'kg/m3', 'M·ρ, ρ solved from p(ρ, T)'),
    fugacity_coefficient: quantity(state.fugacityCoefficient, '', 'ln φ = αʳ + δ·∂αʳ/∂δ − ln Z'),
    fugacity: quantity(state.fugacityCoefficient * p, 'Pa', 'f = φ·P'),
    caloric: {
      enthalpy: quantity(state.enthalpy, 'J/mol', 'h = RT(1 + τ(α⁰τ + αʳτ) + δαʳδ), on the equation’s reference state'),
      entropy: quantity(state.entropy, 'J/(mol·K)', 's = R(τ(α⁰τ + αʳτ) − α⁰ − αʳ), on the equation’s reference state'),
      isobaric_heat_capacity: quantity(state.cp, 'J/(mol·K)', 'cp from α⁰, αʳ and their derivatives'),
      isochoric_heat_capacity: quantity(state.cv, 'J/(mol·K)', 'cv = −Rτ²(α⁰ττ + αʳττ)'),
      speed_of_sound: quantity(state.speedOfSound, 'm/s', 'w from α⁰, αʳ and their derivatives'),
    },
  };
  const mixture = pseudoPure && pseudoPureBasis(fluid, pseudoPure, t, p);
  const basis =
    mixture?.basis ??
    (saturation === undefined
      ? `Above the critical temperature (${tc} K): one fluid phase, supercritical at or above the critical pressure (${pc} Pa).`
      : `p is ${p > saturation ? 'above' : 'at or below'} the saturation pressure at ${t} K, ${Number(saturation.toPrecision(6))} Pa (by phase equilibrium): ${phase}.`);
  const warnings: string[] = [...(mixture?.warnings ?? [])];
  if (saturation !== undefined && Math.abs(p / saturation - 1) < 0.001) {
    warnings.push(
      `The pressure is within 0.1 % of the saturation pressure (${Number(saturation.toPrecision(6))} Pa): liquid and vapour coexist there; this is the ${phase}.`,
    );
  }
  return {
    compound,
    conditions: conditionsResult(conditions),
    reduced_temperature: ratio(t / tc),
    reduced_pressure: ratio(p / pc),
    equation_of_state: {
      id: 'reference',
      name: referenceMethod(fluid),
      source,
    },
    inputs: {
      critical_temperature: { value: tc, unit: 'K', source },
      critical_pressure: { value: pc, unit: 'Pa', source },
    },
    z_roots: [only.compressibility_factor.value],
    phase,
    phase_basis: basis,
    phases: [only],
    warnings,
  };
}
