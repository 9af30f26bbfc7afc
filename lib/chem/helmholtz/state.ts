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
 * A pseudo-pure mixture (air) has no saturation line: the saturation solvers refuse it, and its phase
 * at (T, p) comes from its file's bubble- and dew-point pressure equations (pseudoPurePhase).
 */
import { ancillaryValue, type ReferenceFluid } from './fluid-file.ts';
import { ideal, newDerivatives, residual } from './terms.ts';

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

/** The equation's range in T (K) for single-phase states: from the triple point to Tmax. */
function checkStateTemperature(fluid: ReferenceFluid, t: number): void {
  if (!(t >= fluid.tripleTemperature * (1 - 1e-12) && t <= fluid.maxTemperature)) {
    throw new RangeError(
      `${t} K is outside the range of the ${fluid.name} equation of state (${fluid.tripleTemperature}–${fluid.maxTemperature} K)`,
    );
  }
}

/**
 * Every property at (T, ρ): T in K, ρ in mol/m3. RangeError outside the equation's temperatures, at
 * p ≤ 0 or above its pressure limit, and inside the spinodal (a state with (∂p/∂ρ)_T ≤ 0 has no speed
 * of sound).
 * Example (IAPWS-95 Table 7, tested): water at 500 K, 838.025 kg/m3 → 10.0003858 MPa, w = 1271.28441 m/s.
 */
export function stateAt(fluid: ReferenceFluid, temperature: number, density: number): FluidState {
  checkStateTemperature(fluid, temperature);
  if (!(density > 0 && Number.isFinite(density))) {
    throw new RangeError(`density ${density} mol/m3 is not a positive number`);
  }
  const delta = density / fluid.reducing.density;
  const tau = fluid.reducing.temperature / temperature;
  const r = residual(fluid.residual, delta, tau);
  const o = ideal(fluid.ideal, delta, tau);
  const R = fluid.gasConstant;
  const z = 1 + delta * r.d;
  const stiffness = 1 + 2 * delta * r.d + delta * delta * r.dd; // (∂p/∂ρ)_T / RT
  const coupling = 1 + delta * r.d - delta * tau * r.dt;
  const cvR = -tau * tau * (o.tt + r.tt);
  const pressure = density * R * temperature * z;
  if (!(pressure > 0)) {
    // Inside the two-phase dome an equation's loops can give any p (IAPWS-95: −9.7e11 Pa at 500 K,
    // 322 kg/m3); no fugacity, and no meaning, at p ≤ 0.
    throw new RangeError(
      `${temperature} K, ${density} mol/m3 is inside the ${fluid.name} two-phase region, where its equation gives p = ${pressure.toPrecision(4)} Pa ≤ 0`,
    );
  }
  // The saturation line belongs to the range even where a file's limit is below pc (R161: 5 MPa, pc 5.09 MPa).
  if (pressure > Math.max(fluid.maxPressure, fluid.critical.pressure) * (1 + 1e-9)) {
    throw new RangeError(
      `${pressure.toPrecision(6)} Pa at ${temperature} K, ${density} mol/m3 is above the ${fluid.name} equation's limit of ${fluid.maxPressure / 1e6} MPa`,
    );
  }
  if (!(stiffness > 0 && cvR > 0)) {
    throw new RangeError(
      `${temperature} K, ${density} mol/m3 is inside the ${fluid.name} spinodal (a mechanically unstable state, within the two-phase region)`,
    );
  }
  return {
    temperature,
    density,
    pressure,
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

// Scratch derivatives for the solvers (synchronous, so never shared between two calls in flight).
const liquid = newDerivatives();
const vapor = newDerivatives();

/** Pressure (Pa) and (∂p/∂ρ)_T at (T, ρ): the density solver's function and derivative. */
function pressureAndSlope(fluid: ReferenceFluid, t: number, rho: number): [number, number] {
  const delta = rho / fluid.reducing.density;
  const r = residual(fluid.residual, delta, fluid.reducing.temperature / t, liquid);
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

/** Why a pseudo-pure mixture has no saturation state. */
function noSaturationLine(fluid: ReferenceFluid): string {
  return `${fluid.name} is a mixture described as a pseudo-pure fluid: it has no saturation line and no vapour pressure (it condenses between its dew point and its bubble point, into a liquid and a vapour of different compositions)`;
}

function checkTemperature(fluid: ReferenceFluid, t: number): void {
  if (fluid.pseudoPure) throw new RangeError(noSaturationLine(fluid));
  if (!(t >= fluid.tripleTemperature * (1 - 1e-12) && t < fluid.critical.temperature)) {
    throw new RangeError(
      `${t} K is outside the saturation line of the ${fluid.name} equation of state (triple point ${fluid.tripleTemperature} K to the critical point ${fluid.critical.temperature} K)`,
    );
  }
}

/**
 * Starting densities (δ′, δ″) from the ancillary equations, from the lowest temperature they were
 * fitted at (below it some are absurd: a cyclopropane file's vapour density is 0 at its triple point)
 * up to Tc (where their form, in powers of 1 − T/Tc, extrapolates well).
 */
function ancillaryStart(fluid: ReferenceFluid, t: number): [number, number] | undefined {
  const { liquidDensity: l, vaporDensity: v } = fluid.ancillaries;
  if (t < Math.max(l.tmin, v.tmin)) return undefined;
  const dl = ancillaryValue(l, t) / fluid.reducing.density;
  const dv = ancillaryValue(v, t) / fluid.reducing.density;
  return dv > 0 && dl > dv && Number.isFinite(dl) ? [dl, dv] : undefined;
}

/**
 * Starting densities where the vapour is nearly an ideal gas (well below Tc): δ′ the liquid root of
 * p = 0, found by Newton's method from the ancillary liquid density at the nearest fitted temperature;
 * then equal Gibbs energy with an ideal-gas vapour gives ln δ″ = K(δ′) (K as in saturationAtTemperature).
 * Undefined where p(ρ) has no liquid root at p = 0 (closer to Tc).
 */
function lowPressureStart(fluid: ReferenceFluid, tau: number): [number, number] | undefined {
  const l = fluid.ancillaries.liquidDensity;
  const t = fluid.reducing.temperature / tau;
  const jAndSlope = (delta: number): [number, number] => {
    const r = residual(fluid.residual, delta, tau, liquid);
    return [delta * (1 + delta * r.d), 1 + 2 * delta * r.d + delta * delta * r.dd];
  };
  // The ancillary's density at a warmer temperature can lie inside this isotherm's spinodal: go denser.
  let delta = ancillaryValue(l, Math.min(Math.max(t, l.tmin), l.tmax)) / fluid.reducing.density;
  let [j, jd] = jAndSlope(delta);
  for (let i = 0; i < 40 && !(jd > 0); i++) {
    delta *= 1.05;
    [j, jd] = jAndSlope(delta);
  }
  for (let i = 0; i < 100 && jd > 0; i++) {
    // Newton's step, halved while it would land in the spinodal.
    let step = j / jd;
    let next = delta - step;
    let [jn, jdn] = jAndSlope(next);
    for (let k = 0; k < 30 && !(next > 0 && jdn > 0); k++) {
      step /= 2;
      next = delta - step;
      [jn, jdn] = jAndSlope(next);
    }
    if (!(next > 0 && jdn > 0)) return undefined;
    delta = next;
    [j, jd] = [jn, jdn];
    if (Math.abs(step) < 1e-10 * delta) {
      const k = residual(fluid.residual, delta, tau, liquid);
      const dv = Math.exp(delta * k.d + k.a + Math.log(delta));
      return dv < delta ? [delta, dv] : undefined;
    }
  }
  return undefined;
}

/**
 * Newton's method on equal pressure and Gibbs energy for (δ′, δ″) from a start (Akasaka 2008: with
 * J = δ(1 + δαʳδ) and K = δαʳδ + αʳ + ln δ, both equal in the two phases). A step that would put δ″
 * at or above δ′ (close to Tc) is halved until it does not. Undefined when no solution is reached.
 */
function equilibrium(fluid: ReferenceFluid, tau: number, start: [number, number]): [number, number] | undefined {
  let [dl, dv] = start;
  // A start inside the spinodal (close to Tc the ancillaries can put one there) leads Newton to the
  // trivial solution δ′ = δ″: move it out, denser for the liquid, thinner for the vapour.
  const stiffness = (delta: number) => {
    const r = residual(fluid.residual, delta, tau, liquid);
    return 1 + 2 * delta * r.d + delta * delta * r.dd;
  };
  for (let i = 0; i < 60 && !(stiffness(dl) > 0); i++) dl *= 1.02;
  for (let i = 0; i < 60 && !(stiffness(dv) > 0); i++) dv /= 1.02;
  let lastSize = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 200; i++) {
    const l = residual(fluid.residual, dl, tau, liquid);
    const v = residual(fluid.residual, dv, tau, vapor);
    const jl = dl * (1 + dl * l.d);
    const jv = dv * (1 + dv * v.d);
    const kl = dl * l.d + l.a + Math.log(dl);
    const kv = dv * v.d + v.a + Math.log(dv);
    const jdl = 1 + 2 * dl * l.d + dl * dl * l.dd;
    const jdv = 1 + 2 * dv * v.d + dv * dv * v.dd;
    const kdl = 2 * l.d + dl * l.dd + 1 / dl;
    const kdv = 2 * v.d + dv * v.dd + 1 / dv;
    const det = jdv * kdl - jdl * kdv;
    let stepL = ((kv - kl) * jdv - (jv - jl) * kdv) / det;
    let stepV = ((kv - kl) * jdl - (jv - jl) * kdl) / det;
    for (let k = 0; k < 40 && !(dv + stepV > 0 && dl + stepL > dv + stepV); k++) {
      stepL /= 2;
      stepV /= 2;
    }
    dl += stepL;
    dv += stepV;
    if (!(dv > 0 && dl > dv && Number.isFinite(dl))) return undefined;
    // Converged: steps of 1e-12, or (close to Tc, where J and K are flat) steps that stop shrinking
    // below 1e-8, the round-off floor of the differences.
    const size = Math.max(Math.abs(stepL) / dl, Math.abs(stepV) / dv);
    if (size < 1e-12 || (size < 1e-8 && size > 0.5 * lastSize)) {
      return dl - dv > 1e-6 * dl && stiffness(dl) > 0 && stiffness(dv) > 0 ? [dl, dv] : undefined;
    }
    lastSize = size;
  }
  return undefined;
}

/**
 * Saturated liquid and vapour in equilibrium at T (K), from the triple point up to (not at) the
 * critical point: equal p and Gibbs energy, to about 1e-12 in the densities. Starts from the ancillary
 * equations, else (below their range) from the low-pressure limit, else (close to Tc) from the solution
 * farther from Tc. RangeError outside the range, or
 * where no equilibrium is found (closest to Tc, or between an equation's own critical point and the
 * rounded Tc its file states).
 * Example (IAPWS-95 Table 8, tested): water at 450 K → 0.932203564 MPa, ρ′ = 890.34125, ρ″ = 4.8120036 kg/m3.
 */
export function saturationAtTemperature(fluid: ReferenceFluid, t: number): SaturationState {
  checkTemperature(fluid, t);
  return saturation(fluid, t, 0);
}

function saturation(fluid: ReferenceFluid, t: number, depth: number): SaturationState {
  const rhoR = fluid.reducing.density;
  const tau = fluid.reducing.temperature / t;
  const starts = [
    () => ancillaryStart(fluid, t),
    () => lowPressureStart(fluid, tau),
    () => (depth < 20 ? criticalContinuationStart(fluid, t, depth) : undefined),
  ];
  for (const start of starts) {
    const guess = start();
    const solution = guess && equilibrium(fluid, tau, guess);
    if (!solution) continue;
    // From the vapour: the liquid's p = ρRT(1 + δαʳδ) is a small difference of large terms (near
    // the triple point a 1e-12 change in ρ′ moves it by 1e-6 relative), the vapour's is not.
    const [pressure] = pressureAndSlope(fluid, t, solution[1] * rhoR);
    return { temperature: t, pressure, liquidDensity: solution[0] * rhoR, vaporDensity: solution[1] * rhoR };
  }
  throw new RangeError(
    `no ${fluid.name} phase equilibrium found at ${t} K (too close to the critical point, ${fluid.critical.temperature} K)`,
  );
}

/**
 * Starting densities close to Tc, where the ancillaries can be too rough a start: the solution at the
 * temperature twice as far from Tc (found the same way), its half-width (ρ′ − ρ″)/2 scaled by the
 * critical power law (ΔT ratio)^0.325 about its diameter (ρ′ + ρ″)/2 (J. M. H. Levelt Sengers, Physica
 * 73 (1974) 73: the coexistence curve's exponent β ≈ 0.325). Undefined when that solution fails too.
 */
function criticalContinuationStart(fluid: ReferenceFluid, t: number, depth: number): [number, number] | undefined {
  const tc = fluid.critical.temperature;
  const farther = tc - 2 * (tc - t);
  if (farther < fluid.tripleTemperature) return undefined;
  let sat: SaturationState;
  try {
    sat = saturation(fluid, farther, depth + 1);
  } catch {
    return undefined;
  }
  const diameter = (sat.liquidDensity + sat.vaporDensity) / 2 / fluid.reducing.density;
  const half = ((sat.liquidDensity - sat.vaporDensity) / 2 / fluid.reducing.density) * 0.5 ** 0.325;
  return [diameter + half, diameter - half];
}

/**
 * The saturation state at p (Pa), from the triple-point pressure up to (not at) pc (or the equation's
 * own p at the stated Tc and ρc, when higher): Newton's method on
 * ln p_sat(1/T) with the Clapeyron slope d ln p/d(1/T) = −T·Δh/(p·Δv), kept inside a shrinking bracket
 * (bisection when a step leaves it), from the Clausius–Clapeyron line through the triple and critical
 * points. Example (IAPWS-95 Table 8, tested): water at 0.932203564 MPa → 450 K.
 */
export function saturationAtPressure(fluid: ReferenceFluid, pressure: number): SaturationState {
  if (fluid.pseudoPure) throw new RangeError(noSaturationLine(fluid));
  const tt = fluid.tripleTemperature;
  const tc = fluid.critical.temperature;
  const pt = triplePointPressure(fluid);
  // The equation's own pressure at the stated (Tc, ρc): some files' pc is off it (fluorine's by 1.3 %).
  const pc = Math.max(fluid.critical.pressure, pressureAndSlope(fluid, tc, fluid.critical.density)[0]);
  if (!(pressure >= pt && pressure < pc)) {
    throw new RangeError(
      `${pressure} Pa is outside the saturation line of the ${fluid.name} equation of state (${pt.toPrecision(6)} Pa at the triple point to ${pc} Pa at the critical point)`,
    );
  }
  if (pressure === pt) return saturationAtTemperature(fluid, tt);
  const target = Math.log(pressure);
  // x = 1/T; ln p is close to linear in x.
  let xLow = 1 / (tc * (1 - 1e-9)); // f > 0 side (T too high)
  let xHigh = 1 / tt; // f < 0 side
  let x = 1 / tt + ((target - Math.log(pt)) * (1 / tc - 1 / tt)) / (Math.log(pc) - Math.log(pt));
  for (let i = 0; i < 100; i++) {
    if (!(x > xLow && x < xHigh)) x = 0.5 * (xLow + xHigh);
    const t = 1 / x;
    let sat: SaturationState;
    try {
      sat = saturationAtTemperature(fluid, t);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      xLow = x; // no equilibrium this close to Tc: the answer is below
      x = Number.NaN;
      continue;
    }
    const f = Math.log(sat.pressure) - target;
    if (f > 0) xLow = x;
    else xHigh = x;
    const dh = hDifference(fluid, t, sat);
    const dv = 1 / sat.vaporDensity - 1 / sat.liquidDensity;
    const slope = (-t * dh) / (sat.pressure * dv); // d ln p / dx
    const next = x - f / slope;
    // Converged: the step, or the bracket, below 1e-12 (ln p_sat itself is noisy at 1e-11).
    if (f === 0 || xHigh - xLow < 1e-12 * x) return sat;
    if (Math.abs(next - x) < 1e-12 * x) return saturationAtTemperature(fluid, 1 / next);
    x = next;
  }
  throw new RangeError(`the ${fluid.name} saturation temperature at ${pressure} Pa was not found`);
}

// The triple-point pressure bounds every saturationAtPressure call: solved once per fluid.
const triplePressures = new WeakMap<ReferenceFluid, number>();
function triplePointPressure(fluid: ReferenceFluid): number {
  let p = triplePressures.get(fluid);
  if (p === undefined) {
    p = saturationAtTemperature(fluid, fluid.tripleTemperature).pressure;
    triplePressures.set(fluid, p);
  }
  return p;
}

/** h″ − h′ (J/mol) at saturation: the ideal part cancels (it depends on T alone). */
function hDifference(fluid: ReferenceFluid, t: number, sat: SaturationState): number {
  const tau = fluid.reducing.temperature / t;
  const dl = sat.liquidDensity / fluid.reducing.density;
  const dv = sat.vaporDensity / fluid.reducing.density;
  const l = residual(fluid.residual, dl, tau, liquid);
  const v = residual(fluid.residual, dv, tau, vapor);
  return fluid.gasConstant * t * (tau * (v.t - l.t) + dv * v.d - dl * l.d);
}

/**
 * The density (mol/m3) at (T, p), T in K, p in Pa: of the stable phase (below Tc: liquid when p is
 * above the saturation pressure, vapour below it; above Tc the one fluid phase), or of the phase asked
 * for, metastable if need be (RangeError beyond its spinodal). Newton's method on p(ρ) from the
 * saturated density of the phase (or the ideal gas), bracketed within the phase's bounds. Example (IAPWS-95 Table 7, tested): water at 300 K, 0.0992418352 MPa → 996.556 kg/m3.
 * A pseudo-pure mixture's phase is set by its dew and bubble points (pseudoPurePhase); `phase` is not used
 * for it (it has no metastable states on record).
 */
export function densityAt(fluid: ReferenceFluid, t: number, p: number, phase?: 'liquid' | 'vapor'): number {
  if (!(t >= fluid.tripleTemperature * (1 - 1e-12) && t <= fluid.maxTemperature && p > 0 && p <= fluid.maxPressure)) {
    throw new RangeError(
      `(${t} K, ${p} Pa) is outside the range of the ${fluid.name} equation of state (${fluid.tripleTemperature}–${fluid.maxTemperature} K, up to ${fluid.maxPressure / 1e6} MPa)`,
    );
  }
  const idealGas = p / (fluid.gasConstant * t);
  if (fluid.pseudoPure) return pseudoPureDensity(fluid, t, p, idealGas);
  if (t >= fluid.critical.temperature) return solveDensity(fluid, t, p, idealGas, 0, Number.POSITIVE_INFINITY);
  const sat = saturationAtTemperature(fluid, t);
  const wantLiquid = phase ? phase === 'liquid' : p >= sat.pressure;
  if (wantLiquid) {
    return p >= sat.pressure
      ? solveDensity(fluid, t, p, sat.liquidDensity, sat.liquidDensity, Number.POSITIVE_INFINITY)
      : metastable(fluid, t, p, sat.liquidDensity, 'liquid');
  }
  return p <= sat.pressure
    ? solveDensity(fluid, t, p, Math.min(idealGas, sat.vaporDensity), 0, sat.vaporDensity)
    : metastable(fluid, t, p, sat.vaporDensity, 'vapor');
}

export interface PseudoPurePhase {
  phase: 'liquid' | 'vapor' | 'supercritical';
  /** Pa, from the file's equations; absent above the maxcondentherm, where there is no two-phase region. */
  dewPressure?: number;
  bubblePressure?: number;
}

/**
 * The phase of a pseudo-pure mixture at (T, p), T in K, p in Pa: above its maxcondentherm one fluid phase
 * (supercritical at or above its critical pressure); below it, vapour under the dew-point pressure and
 * liquid over the bubble-point pressure, from the file's equations for them. RangeError between the two,
 * where the mixture splits into a liquid and a vapour of different compositions: no pseudo-pure state.
 */
export function pseudoPurePhase(fluid: ReferenceFluid, t: number, p: number): PseudoPurePhase {
  const bounds = fluid.pseudoPure;
  if (!bounds) throw new Error(`${fluid.name} is not a pseudo-pure mixture`);
  if (t >= bounds.maxcondentherm.temperature)
    return { phase: p >= fluid.critical.pressure ? 'supercritical' : 'vapor' };
  const dewPressure = ancillaryValue(bounds.dewPressure, t);
  const bubblePressure = ancillaryValue(bounds.bubblePressure, t);
  if (p < dewPressure) return { phase: 'vapor', dewPressure, bubblePressure };
  if (p > bubblePressure) return { phase: 'liquid', dewPressure, bubblePressure };
  throw new RangeError(
    `${p} Pa at ${t} K is inside the two-phase region of ${fluid.name}, between its dew-point pressure (${Number(dewPressure.toPrecision(5))} Pa) and bubble-point pressure (${Number(bubblePressure.toPrecision(5))} Pa): it splits there into a liquid and a vapour of different compositions, which a pseudo-pure equation does not describe`,
  );
}

/**
 * A pseudo-pure mixture's density: the vapour (or one-phase) root found upward from the ideal gas, the
 * liquid root upward from the file's bubble-point density thinned until p(ρ) is below p on the liquid branch.
 */
function pseudoPureDensity(fluid: ReferenceFluid, t: number, p: number, idealGas: number): number {
  if (pseudoPurePhase(fluid, t, p).phase !== 'liquid') return solveDensity(fluid, t, p, idealGas, 0, Infinity);
  let low = ancillaryValue(fluid.ancillaries.liquidDensity, t);
  for (let i = 0; ; i++) {
    const [value, slope] = pressureAndSlope(fluid, t, low);
    if (value <= p) break;
    if (!(slope > 0) || i === 1000)
      throw new RangeError(`no liquid density of ${fluid.name} found at ${t} K and ${p} Pa`);
    low *= 0.995;
  }
  return solveDensity(fluid, t, p, low, low, Infinity);
}

/**
 * The root of p(ρ) = p between `low` (p(low) ≤ p) and `high`: Newton's method from `start`, kept inside
 * a shrinking bracket (bisection when a step leaves it). An infinite `high` is found by stepping up
 * from the start until p is passed: the first crossing is the physical root (far beyond the equation's
 * range p(ρ) can turn over and cross p again, as methane's does above 120 kmol/m3 at 620 K, where
 * Newton from the ideal-gas density at 1 GPa went; R123's turns over at 160 MPa at 166 K).
 */
function solveDensity(fluid: ReferenceFluid, t: number, p: number, start: number, low: number, high: number): number {
  if (!Number.isFinite(high)) {
    let top = Math.max(low, Math.min(start, fluid.critical.density));
    for (let i = 0; ; i++) {
      const [value, slope] = pressureAndSlope(fluid, t, top);
      if (value >= p) break;
      if (!(slope > 0) || i === 1000) {
        throw new RangeError(
          `${p} Pa is above the highest pressure the ${fluid.name} equation reaches at ${t} K (${value.toPrecision(4)} Pa, where p(ρ) turns over)`,
        );
      }
      low = top;
      // Twice Newton's step passes a concave stretch quickly; at most 20 % keeps the step on the branch.
      top = Math.min(1.2 * top, Math.max(1.001 * top, top + (2 * (p - value)) / slope));
    }
    high = top;
  }
  let rho = start > low && start < high ? start : 0.5 * (low + high);
  for (let i = 0; i < 200; i++) {
    const [value, slope] = pressureAndSlope(fluid, t, rho);
    if (value < p) low = rho;
    else high = rho;
    let next = rho - (value - p) / slope;
    if (!(slope > 0 && next > low && next < high)) next = 0.5 * (low + high);
    if (Math.abs(next - rho) < 1e-13 * rho || high - low < 1e-14 * high) return next;
    rho = next;
  }
  throw new RangeError(`no density of ${fluid.name} found at ${t} K and ${p} Pa`);
}

/**
 * A metastable root: superheated liquid (p below p_sat) or subcooled vapour (p above), by Newton's
 * method from the saturated density, which moves toward the spinodal; RangeError when p is beyond it.
 */
function metastable(fluid: ReferenceFluid, t: number, p: number, start: number, phase: 'liquid' | 'vapor'): number {
  let rho = start;
  for (let i = 0; i < 100; i++) {
    const [value, slope] = pressureAndSlope(fluid, t, rho);
    if (!(slope > 0)) break;
    const step = (value - p) / slope;
    rho -= step;
    if (!(rho > 0)) break;
    if (Math.abs(step) < 1e-13 * rho) {
      if (pressureAndSlope(fluid, t, rho)[1] > 0) return rho;
      break;
    }
  }
  throw new RangeError(
    `no metastable ${phase} of ${fluid.name} at ${t} K and ${p} Pa: beyond its spinodal (the saturation pressure is ${saturationAtTemperature(fluid, t).pressure.toPrecision(6)} Pa)`,
  );
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
