/**
 * service_eos_state with eos "reference": the state of a pure fluid at (T, p) from its reference
 * equation of state (../helmholtz/), in the same shape as the cubic answer: one phase (the stable one:
 * liquid above the saturation pressure, vapour below, supercritical above Tc and pc), its Z, volume,
 * density, fugacity, and the caloric properties only a Helmholtz equation gives (h, s, cp, cv, w).
 */
import type { Compound } from '../compounds.ts';
import type { ReferenceFluid } from '../helmholtz/fluid-file.ts';
import { referenceMethod } from '../helmholtz/fluids.ts';
import { densityAt, saturationAtTemperature, stateAt } from '../helmholtz/state.ts';
import { ToolError } from '../tool.ts';
import { type Conditions, conditionsResult, type Quantity } from './eos-shared.ts';
import type { EosPhase, EosStateResult, PhaseName } from './eos-state.ts';

/** Pa: below this the equation is not evaluated (δ underflows; the fluid is an ideal gas to every digit). */
const MIN_PRESSURE = 1e-6;

const FORM =
  'α(δ, τ) = α⁰ + αʳ, δ = ρ/ρr, τ = Tr/T; p = ρRT(1 + δ·∂αʳ/∂δ); ρ solved from p at T, the stable phase by the saturation line (equal p and Gibbs energy)';
const FORM_SOURCE =
  'W. Wagner, A. Pruß, J. Phys. Chem. Ref. Data 31 (2002) 387 (property relations); E. W. Lemmon, R. Span, J. Chem. Eng. Data 51 (2006) 785 (functional forms)';

/** The state at `conditions` from the fluid's reference equation; RangeErrors of the solvers become out_of_range. */
export function referenceState(compound: Compound, fluid: ReferenceFluid, conditions: Conditions): EosStateResult {
  const { temperature: t, pressure: p } = conditions;
  const tc = fluid.critical.temperature;
  const pc = fluid.critical.pressure;
  let density: number;
  let saturation: number | undefined;
  let state: ReturnType<typeof stateAt>;
  try {
    // Far below any physical use the terms' powers of δ underflow; the ideal gas is exact there.
    if (p < MIN_PRESSURE) {
      throw new RangeError(
        `${p} Pa is below the ${MIN_PRESSURE} Pa the reference equation is evaluated at (an ideal gas there)`,
      );
    }
    saturation = t < tc ? saturationAtTemperature(fluid, t).pressure : undefined;
    density = densityAt(fluid, t, p);
    state = stateAt(fluid, t, density);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new ToolError(
      'out_of_range',
      `${error.message}. A cubic equation (eos "peng_robinson") answers outside it, less accurately.`,
      { temperature: t, pressure: p },
    );
  }
  const phase: PhaseName =
    saturation === undefined ? (p >= pc ? 'supercritical' : 'vapor') : p > saturation ? 'liquid' : 'vapor';
  const method = referenceMethod(fluid);
  const source = fluid.citation;
  const quantity = (value: number, unit: string, how: string): Quantity => ({
    value,
    unit,
    method: `${method}: ${how}`,
    source,
  });
  const molarMass = fluid.molarMass;
  const only: EosPhase = {
    phase,
    root: 'only',
    stable: true,
    compressibility_factor: quantity(state.compressibility, '', 'Z = 1 + δ·∂αʳ/∂δ'),
    molar_volume: quantity(1 / density, 'm3/mol', 'V = 1/ρ, ρ solved from p(ρ, T)'),
    density: quantity(density * molarMass, 'kg/m3', 'ρ solved from p(ρ, T), times M'),
    fugacity_coefficient: quantity(state.fugacityCoefficient, '', 'ln φ = αʳ + δ·∂αʳ/∂δ − ln Z'),
    fugacity: quantity(state.fugacityCoefficient * p, 'Pa', 'f = φ·P'),
    caloric: {
      enthalpy: quantity(state.enthalpy, 'J/mol', 'h = RT(1 + τ(α⁰τ + αʳτ) + δαʳδ), on the equation’s reference state'),
      entropy: quantity(state.entropy, 'J/(mol·K)', 's = R(τ(α⁰τ + αʳτ) − α⁰ − αʳ), on the equation’s reference state'),
      isobaric_heat_capacity: quantity(state.cp, 'J/(mol·K)', 'cp from α⁰ and αʳ and their derivatives'),
      isochoric_heat_capacity: quantity(state.cv, 'J/(mol·K)', 'cv = −Rτ²(α⁰ττ + αʳττ)'),
      speed_of_sound: quantity(state.speedOfSound, 'm/s', 'w from α⁰ and αʳ and their derivatives'),
    },
  };
  const basis =
    saturation === undefined
      ? `Above the equation's critical temperature (${tc} K): one fluid phase, called supercritical at or above its critical pressure (${pc} Pa).`
      : `Below the critical temperature the stable phase is the one on its side of the saturation pressure, ${saturation.toPrecision(6)} Pa at ${t} K by phase equilibrium: ${phase}.`;
  const warnings: string[] = [];
  if (saturation !== undefined && Math.abs(p / saturation - 1) < 0.001) {
    warnings.push(
      `The pressure is within 0.1 % of the saturation pressure (${saturation.toPrecision(6)} Pa): liquid and vapour coexist there; this is the ${phase}.`,
    );
  }
  return {
    compound: {
      name: compound.name,
      cas: compound.cas,
      formula: compound.formula,
      molecular_weight: { value: compound.properties.molecular_weight!.value, unit: 'g/mol' },
    },
    conditions: conditionsResult(conditions),
    reduced_temperature: { value: t / tc, unit: '' },
    reduced_pressure: { value: p / pc, unit: '' },
    equation_of_state: {
      id: 'reference',
      name: `Reference equation of state for ${fluid.name}`,
      source,
      form: FORM,
      form_source: FORM_SOURCE,
    },
    inputs: {
      critical_temperature: { value: tc, unit: 'K', source },
      critical_pressure: { value: pc, unit: 'Pa', source },
    },
    z_roots: [state.compressibility],
    phase,
    phase_basis: basis,
    phases: [only],
    warnings,
  };
}
