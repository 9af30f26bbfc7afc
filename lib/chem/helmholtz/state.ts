/**
 * Thermodynamic properties from a reference equation of state, and the solvers that find a state:
 * density at (T, p) and the saturation line by phase equilibrium. SI, molar: T in K, ρ in mol/m3,
 * p in Pa, h in J/mol, s, cp, cv in J/(mol·K), w in m/s.
 *
 * From α = α⁰ + αʳ (./terms.ts), with δ = ρ/ρr, τ = Tr/T (Wagner & Pruß 2002, Table 3):
 *   p = ρRT(1 + δαʳδ)                    h/RT = 1 + τ(α⁰τ + αʳτ) + δαʳδ
 *   s/R = τ(α⁰τ + αʳτ) − α⁰ − αʳ           cv/R = −τ²(α⁰ττ + αʳττ)
 *   cp/R = cv/R + (1 + δαʳδ − δταʳδτ)²/(1 + 2δαʳδ + δ²αʳδδ)
 *   w²M/RT = 1 + 2δαʳδ + δ²αʳδδ − (1 + δαʳδ − δταʳδτ)²/(τ²(α⁰ττ + αʳττ))
 *   ln φ = αʳ + δαʳδ − ln(1 + δαʳδ)
 * Saturation: equal pressure and Gibbs energy in both phases, solved for δ′ and δ″ by Newton's method
 * in the form of Y. Akasaka, J. Thermal Sci. Technol. 3 (2008) 442–451, from the ancillary equations'
 * densities. Source of the property relations: W. Wagner, A. Pruß, J. Phys. Chem. Ref. Data 31 (2002) 387.
 */
import { brentRoot } from '../brent.ts';
import { ancillaryValue, type ReferenceFluid } from './fluid-file.ts';
import { ideal, residual } from './terms.ts';

export interface FluidState {
  temperature: number;
  /** mol/m3 */
  density: number;
  pressure: number;
  compressibility: number;
  enthalpy: number;
  entropy: number;
  internalEnergy: number;
  cp: number;
  cv: number;
  speedOfSound: number;
  fugacityCoefficient: number;
}

/** Every property at (T, ρ). */
export function stateAt(fluid: ReferenceFluid, temperature: number, density: number): FluidState {
  const delta = density / fluid.reducing.density;
  const tau = fluid.reducing.temperature / temperature;
  const r = residual(fluid.residual, delta, tau);
  const o = ideal(fluid.ideal, delta, tau);
  const R = fluid.gasConstant;
  const z = 1 + delta * r.d;
  const stiffness = 1 + 2 * delta * r.d + delta * delta * r.dd; // (∂p/∂ρ)_T / RT
  const coupling = 1 + delta * r.d - delta * tau * r.dt;
  const cvR = -tau * tau * (o.tt + r.tt);
  return {
    temperature,
    density,
    pressure: density * R * temperature * z,
    compressibility: z,
    enthalpy: R * temperature * (1 + tau * (o.t + r.t) + delta * r.d),
    entropy: R * (tau * (o.t + r.t) - o.a - r.a),
    internalEnergy: R * temperature * tau * (o.t + r.t),
    cv: R * cvR,
    cp: R * (cvR + (coupling * coupling) / stiffness),
    speedOfSound: Math.sqrt(((R * temperature) / fluid.molarMass) * (stiffness + (coupling * coupling) / cvR)),
    fugacityCoefficient: Math.exp(r.a + delta * r.d - Math.log(z)),
  };
}

/** Pressure (Pa) and (∂p/∂ρ)_T at (T, ρ): the density solver's function and derivative. */
function pressureAndSlope(fluid: ReferenceFluid, t: number, rho: number): [number, number] {
  const delta = rho / fluid.reducing.density;
  const r = residual(fluid.residual, delta, fluid.reducing.temperature / t);
  const rt = fluid.gasConstant * t;
  return [rho * rt * (1 + delta * r.d), rt * (1 + 2 * delta * r.d + delta * delta * r.dd)];
}

export interface SaturationState {
  temperature: number;
  pressure: number;
  /** mol/m3 */
  liquidDensity: number;
  vaporDensity: number;
}

function checkTemperature(fluid: ReferenceFluid, t: number): void {
  if (!(t >= fluid.tripleTemperature && t < fluid.critical.temperature)) {
    throw new RangeError(
      `${t} K is outside the saturation line of the ${fluid.name} equation of state (triple point ${fluid.tripleTemperature} K to the critical point ${fluid.critical.temperature} K)`,
    );
  }
}

/** Saturated liquid and vapour in equilibrium at T (K), from the triple point up to (not at) the critical point. */
export function saturationAtTemperature(fluid: ReferenceFluid, t: number): SaturationState {
  checkTemperature(fluid, t);
  const rhoR = fluid.reducing.density;
  const tau = fluid.reducing.temperature / t;
  // J = δ(1 + δαʳδ) and K = δαʳδ + αʳ + ln δ are equal in both phases at equilibrium (Akasaka 2008).
  const jk = (delta: number) => {
    const r = residual(fluid.residual, delta, tau);
    return {
      J: delta * (1 + delta * r.d),
      K: delta * r.d + r.a + Math.log(delta),
      Jd: 1 + 2 * delta * r.d + delta * delta * r.dd,
      Kd: 2 * r.d + delta * r.dd + 1 / delta,
    };
  };
  // Full Newton steps converge everywhere but close to Tc, where shorter ones keep δ″ on the vapour side.
  for (const gamma of [1, 0.5, 0.2]) {
    let dl = ancillaryValue(fluid.ancillaries.liquidDensity, t) / rhoR;
    let dv = ancillaryValue(fluid.ancillaries.vaporDensity, t) / rhoR;
    for (let i = 0; i < 200; i++) {
      const l = jk(dl);
      const v = jk(dv);
      const det = v.Jd * l.Kd - l.Jd * v.Kd;
      const stepL = ((v.K - l.K) * v.Jd - (v.J - l.J) * v.Kd) / det;
      const stepV = ((v.K - l.K) * l.Jd - (v.J - l.J) * l.Kd) / det;
      dl += gamma * stepL;
      dv += gamma * stepV;
      if (!(dv > 0 && dl > dv)) break;
      if (Math.abs(stepL) < 1e-12 * dl && Math.abs(stepV) < 1e-12 * dv) {
        const [pressure] = pressureAndSlope(fluid, t, dl * rhoR);
        return { temperature: t, pressure, liquidDensity: dl * rhoR, vaporDensity: dv * rhoR };
      }
    }
  }
  throw new RangeError(
    `the ${fluid.name} saturation solver did not converge at ${t} K (too close to the critical point)`,
  );
}

/**
 * The saturation temperature at p (Pa): Brent's method on ln p_sat(T), bracketed around the ancillary
 * equation's temperature (so the solver is not run near the critical point unless p is).
 */
export function saturationAtPressure(fluid: ReferenceFluid, pressure: number): SaturationState {
  const low = fluid.tripleTemperature;
  const high = fluid.critical.temperature * (1 - 1e-5);
  const pLow = saturationAtTemperature(fluid, low).pressure;
  if (!(pressure >= pLow && pressure < fluid.critical.pressure)) {
    throw new RangeError(
      `${pressure} Pa is outside the saturation line of the ${fluid.name} equation of state (${pLow.toPrecision(6)} Pa at the triple point to ${fluid.critical.pressure} Pa at the critical point)`,
    );
  }
  const ancillary = fluid.ancillaries.pressure;
  // The ancillary is defined up to its own reducing temperature (θ = 1 − T/Tr ≥ 0).
  const top = Math.min(fluid.critical.temperature, ancillary.tr) * (1 - 1e-9);
  const guess = Math.min(
    high,
    brentRoot((t) => Math.log(ancillaryValue(ancillary, t) / pressure), low, top),
  );
  const target = Math.log(pressure);
  const f = (t: number) => Math.log(saturationAtTemperature(fluid, t).pressure) - target;
  let below = Math.max(low, guess - 0.5);
  let above = Math.min(high, guess + 0.5);
  while (f(below) > 0 && below > low) below = Math.max(low, below - 5);
  while (f(above) < 0 && above < high) above = Math.min(high, above + 5);
  const t = brentRoot(f, below, above, { xTolerance: 1e-10 * above });
  return saturationAtTemperature(fluid, t);
}

/**
 * The density (mol/m3) of the stable phase at (T, p): liquid when p is above the saturation pressure
 * (below Tc), vapour below it; a single fluid phase above Tc. Newton's method on p(ρ) from the
 * saturated density of that phase (or the ideal gas), falling back to bisection in the phase's
 * mechanically stable range.
 */
export function densityAt(fluid: ReferenceFluid, t: number, p: number, phase?: 'liquid' | 'vapor'): number {
  if (!(t >= fluid.tripleTemperature && t <= fluid.maxTemperature && p > 0 && p <= fluid.maxPressure)) {
    throw new RangeError(
      `(${t} K, ${p} Pa) is outside the range of the ${fluid.name} equation of state (${fluid.tripleTemperature}–${fluid.maxTemperature} K, up to ${fluid.maxPressure / 1e6} MPa)`,
    );
  }
  const ideal = p / (fluid.gasConstant * t);
  if (t >= fluid.critical.temperature) return solveDensity(fluid, t, p, ideal, 0, 6 * fluid.critical.density);
  const sat = saturationAtTemperature(fluid, t);
  const liquid = phase ? phase === 'liquid' : p >= sat.pressure;
  return liquid
    ? solveDensity(fluid, t, p, sat.liquidDensity, sat.liquidDensity, 6 * fluid.critical.density)
    : solveDensity(fluid, t, p, Math.min(ideal, sat.vaporDensity), 0, sat.vaporDensity);
}

function solveDensity(fluid: ReferenceFluid, t: number, p: number, start: number, low: number, high: number): number {
  let rho = start;
  for (let i = 0; i < 50; i++) {
    const [value, slope] = pressureAndSlope(fluid, t, rho);
    if (!(slope > 0)) break;
    const step = (value - p) / slope;
    const next = rho - step;
    if (!(next > 0)) break;
    rho = next;
    if (Math.abs(step) < 1e-13 * rho) return rho;
  }
  // Newton left the stable branch: bisect p(ρ) − p within the phase's bounds.
  return brentRoot((x) => pressureAndSlope(fluid, t, x)[0] - p, Math.max(low, 1e-12), high, {
    xTolerance: 1e-12 * high,
  });
}

/**
 * The ideal-gas part alone: Cp°(T), and H°(T), S°(T) at one constant pressure, in the equation's own
 * reference state (only differences are meaningful): Cp°/R = 1 − τ²α⁰ττ, H°/RT = 1 + τα⁰τ,
 * S°/R = τα⁰τ − α⁰ with δ at the ideal-gas density of 1 bar (the ln δ term carries the pressure).
 */
export function idealGasProperties(fluid: ReferenceFluid): {
  cp(t: number): number;
  enthalpy(t: number): number;
  entropy(t: number): number;
} {
  const R = fluid.gasConstant;
  const at = (t: number) => {
    const tau = fluid.reducing.temperature / t;
    return { tau, ...ideal(fluid.ideal, 1e5 / (R * t) / fluid.reducing.density, tau) };
  };
  return {
    cp: (t) => {
      const o = at(t);
      return R * (1 - o.tau * o.tau * o.tt);
    },
    enthalpy: (t) => R * t * (1 + at(t).tau * at(t).t),
    entropy: (t) => {
      const o = at(t);
      return R * (o.tau * o.t - o.a);
    },
  };
}
