/**
 * Cubic equations of state: van der Waals, Redlich–Kwong, Soave–Redlich–Kwong and Peng–Robinson,
 * for pure fluids and for mixtures with van der Waals one-fluid mixing rules. Pure functions in SI:
 * temperature in K, pressure in Pa, molar volume in m3/mol, a in Pa·m6/mol2, b in m3/mol.
 *
 * All four are one generic cubic (Smith, Van Ness & Abbott, 7th ed., Table 3.1):
 *
 *   P = R·T/(V − b) − a(T)/((V + ε·b)(V + σ·b)),   a(T) = Ψ·α(Tr, ω)·R²·Tc²/Pc,   b = Ω·R·Tc/Pc
 *
 * which in Z = P·V/(R·T), with A = a·P/(R·T)² and B = b·P/(R·T), is
 *
 *   Z³ + [(ε + σ)·B − 1 − B]·Z² + [ε·σ·B² − (ε + σ)·B·(1 + B) + A]·Z − [ε·σ·B²·(1 + B) + A·B] = 0
 *
 * and whose fugacity coefficient is (SVA 7th ed., ch. 11 for a pure fluid; ch. 14, VLE from cubic
 * equations of state, for a mixture)
 *
 *   ln φ_k = (b_k/b)(Z − 1) − ln(Z − B) − (A/B)·(2·Σ_j x_j·a_kj/a − b_k/b)·I,
 *   I = ln((Z + σ·B)/(Z + ε·B))/(σ − ε)   (I = B/Z when σ = ε = 0, van der Waals)
 *
 * which for a pure fluid (x_k = 1) is ln φ = Z − 1 − ln(Z − B) − (A/B)·I. Mixing rules:
 * a = Σ_i Σ_j x_i·x_j·(1 − k_ij)·√(a_i·a_j), b = Σ_i x_i·b_i.
 *
 * Worked example (Peng–Robinson; the documented case of Caleb Bell's thermo library): Tc = 507.6 K,
 * Pc = 30.25 bar, ω = 0.2975 at 400 K and 10 bar → liquid V = 1.56073e-4 m3/mol, vapour
 * V = 2.14188e-3 m3/mol (tested in eos.test.ts).
 */
import { R } from './constants.ts';
import { realCubicRoots } from './cubic.ts';

export type CubicEosId = 'peng_robinson' | 'srk' | 'redlich_kwong' | 'van_der_waals';

export const CUBIC_EOS_IDS: readonly CubicEosId[] = ['peng_robinson', 'srk', 'redlich_kwong', 'van_der_waals'];

export const GENERIC_CUBIC_SOURCE =
  'J. M. Smith, H. C. Van Ness, M. M. Abbott, Introduction to Chemical Engineering Thermodynamics, 7th ed., McGraw-Hill, 2005, Table 3.1 (generic cubic equation of state)';

export interface CubicEos {
  id: CubicEosId;
  name: string;
  source: string;
  /** ε and σ of the generic form. */
  epsilon: number;
  sigma: number;
  /** Ω (for b) and Ψ (for a) of the generic form, dimensionless. */
  omega: number;
  psi: number;
  /** The critical compressibility the equation predicts (real fluids: about 0.23–0.29). */
  zc: number;
  usesAcentricFactor: boolean;
  /** α and dα/dTr at reduced temperature tr for acentric factor ω. */
  alpha(tr: number, acentric: number): { alpha: number; dAlphaDTr: number };
  /** What a user of its numbers must know. */
  caveat: string;
}

/** Soave-type α = [1 + m·(1 − √Tr)]², with m a quadratic in ω. */
function soaveAlpha(m: number, tr: number): { alpha: number; dAlphaDTr: number } {
  const root = 1 + m * (1 - Math.sqrt(tr));
  return { alpha: root * root, dAlphaDTr: (-m * root) / Math.sqrt(tr) };
}

const CBRT2 = Math.cbrt(2);

export const CUBIC_EOS: Readonly<Record<CubicEosId, CubicEos>> = {
  van_der_waals: {
    id: 'van_der_waals',
    name: 'van der Waals (1873)',
    source: 'J. D. van der Waals, Over de Continuïteit van den Gas- en Vloeistoftoestand, dissertation, Leiden, 1873',
    epsilon: 0,
    sigma: 0,
    omega: 1 / 8,
    psi: 27 / 64,
    zc: 3 / 8,
    usesAcentricFactor: false,
    alpha: () => ({ alpha: 1, dAlphaDTr: 0 }),
    caveat:
      'van der Waals is qualitative: its critical compressibility is 0.375 (real fluids 0.23–0.29); use Peng–Robinson or SRK for numbers.',
  },
  redlich_kwong: {
    id: 'redlich_kwong',
    name: 'Redlich–Kwong (1949)',
    source:
      'O. Redlich, J. N. S. Kwong, On the Thermodynamics of Solutions. V. An Equation of State. Fugacities of Gaseous Solutions, Chem. Rev. 44 (1949) 233–244',
    epsilon: 0,
    sigma: 1,
    // Exact roots of the critical conditions; the paper rounds them to 0.08664 and 0.42748.
    omega: (CBRT2 - 1) / 3,
    psi: 1 / (9 * (CBRT2 - 1)),
    zc: 1 / 3,
    usesAcentricFactor: false,
    alpha: (tr) => ({ alpha: 1 / Math.sqrt(tr), dAlphaDTr: -0.5 * tr ** -1.5 }),
    caveat:
      'Redlich–Kwong has no acentric factor: fair for gases of simple molecules, poor for liquids and for vapour pressures.',
  },
  srk: {
    id: 'srk',
    name: 'Soave–Redlich–Kwong (1972)',
    source:
      'G. Soave, Equilibrium constants from a modified Redlich–Kwong equation of state, Chem. Eng. Sci. 27 (1972) 1197–1203',
    epsilon: 0,
    sigma: 1,
    omega: (CBRT2 - 1) / 3,
    psi: 1 / (9 * (CBRT2 - 1)),
    zc: 1 / 3,
    usesAcentricFactor: true,
    alpha: (tr, w) => soaveAlpha(0.48 + 1.574 * w - 0.176 * w * w, tr),
    caveat:
      'SRK liquid densities are typically 5–15% low for nonpolar fluids and worse for polar ones (water at 298 K: about 24% low); use service_liquid_density for liquids.',
  },
  peng_robinson: {
    id: 'peng_robinson',
    name: 'Peng–Robinson (1976)',
    source: 'D.-Y. Peng, D. B. Robinson, A New Two-Constant Equation of State, Ind. Eng. Chem. Fundam. 15 (1976) 59–64',
    epsilon: 1 - Math.SQRT2,
    sigma: 1 + Math.SQRT2,
    // The roots of the critical conditions, to double precision; the paper rounds them to 0.07780 and 0.45724.
    omega: 0.07779607390388846,
    psi: 0.4572355289213822,
    zc: 0.30740130869870386,
    usesAcentricFactor: true,
    alpha: (tr, w) => soaveAlpha(0.37464 + 1.54226 * w - 0.26992 * w * w, tr),
    caveat:
      'Peng–Robinson liquid densities are typically within about 10% for nonpolar fluids and worse for polar ones (water at 298 K: about 15% low); use service_liquid_density for liquids.',
  },
};

export interface CriticalConstants {
  /** Critical temperature, K. */
  tc: number;
  /** Critical pressure, Pa. */
  pc: number;
  /** Acentric factor, dimensionless (needed by SRK and Peng–Robinson; ignored by the others). */
  acentric?: number;
}

interface EosParameters {
  /** Pa·m6/mol2 */
  a: number;
  /** m3/mol */
  b: number;
  /** da/dT, Pa·m6/(mol2·K) */
  dadT: number;
}

/** a(T), b and da/dT of one pure fluid at temperature t (K). */
export function pureParameters(eos: CubicEos, c: CriticalConstants, t: number): EosParameters {
  if (eos.usesAcentricFactor && c.acentric === undefined) throw new Error(`${eos.name} needs the acentric factor`);
  const { alpha, dAlphaDTr } = eos.alpha(t / c.tc, c.acentric ?? 0);
  const aCritical = (eos.psi * R * R * c.tc * c.tc) / c.pc;
  return { a: aCritical * alpha, b: (eos.omega * R * c.tc) / c.pc, dadT: (aCritical * dAlphaDTr) / c.tc };
}

/** Dimensionless A = a·P/(R·T)² and B = b·P/(R·T). */
export function dimensionless(p: EosParameters, t: number, pressure: number): { A: number; B: number } {
  const rt = R * t;
  return { A: (p.a * pressure) / (rt * rt), B: (p.b * pressure) / rt };
}

/** All real roots Z > B of the equation (a root with V ≤ b is not a fluid state), ascending. */
export function compressibilityRoots(eos: CubicEos, A: number, B: number): number[] {
  const { epsilon: e, sigma: s } = eos;
  const roots = realCubicRoots(
    (e + s) * B - 1 - B,
    e * s * B * B - (e + s) * B * (1 + B) + A,
    -(e * s * B * B * (1 + B) + A * B),
  );
  return roots.filter((z) => z > B);
}

function integralI(eos: CubicEos, z: number, B: number): number {
  if (eos.sigma === eos.epsilon) return B / z;
  return Math.log((z + eos.sigma * B) / (z + eos.epsilon * B)) / (eos.sigma - eos.epsilon);
}

/** ln φ of a pure fluid at the root z. */
export function lnFugacityCoefficient(eos: CubicEos, z: number, A: number, B: number): number {
  return z - 1 - Math.log(z - B) - (A / B) * integralI(eos, z, B);
}

interface MixtureParameters extends EosParameters {
  /** b_k of each component, m3/mol. */
  bi: number[];
  /** Σ_j x_j·a_kj of each component, Pa·m6/mol2. */
  sumXjAkj: number[];
}

/**
 * Mixture a, b and da/dT with van der Waals one-fluid mixing rules.
 * x: mole fractions (summing to 1); kij: symmetric binary interaction matrix with zero diagonal.
 */
export function mixtureParameters(
  eos: CubicEos,
  components: readonly CriticalConstants[],
  x: readonly number[],
  kij: readonly (readonly number[])[],
  t: number,
): MixtureParameters {
  const pure = components.map((c) => pureParameters(eos, c, t));
  const n = pure.length;
  let a = 0;
  let dadT = 0;
  const sumXjAkj = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const root = Math.sqrt(pure[i].a * pure[j].a);
      const aij = (1 - kij[i][j]) * root;
      sumXjAkj[i] += x[j] * aij;
      a += x[i] * x[j] * aij;
      // d√(a_i·a_j)/dT = (a_i'·a_j + a_i·a_j')/(2·√(a_i·a_j))
      dadT += x[i] * x[j] * (1 - kij[i][j]) * ((pure[i].dadT * pure[j].a + pure[i].a * pure[j].dadT) / (2 * root));
    }
  }
  const bi = pure.map((p) => p.b);
  return { a, b: bi.reduce((sum, bk, k) => sum + x[k] * bk, 0), dadT, bi, sumXjAkj };
}

/** ln φ_k of every component of a mixture at the root z (A, B of the mixture). */
export function lnFugacityCoefficientsInMixture(
  eos: CubicEos,
  z: number,
  A: number,
  B: number,
  mix: MixtureParameters,
): number[] {
  const common = -Math.log(z - B);
  const i = integralI(eos, z, B);
  return mix.bi.map((bk, k) => {
    const bRatio = bk / mix.b;
    return bRatio * (z - 1) + common - (A / B) * ((2 * mix.sumXjAkj[k]) / mix.a - bRatio) * i;
  });
}

/**
 * Phase identification parameter Π = V·[(∂²P/∂V∂T)/(∂P/∂T)_V − (∂²P/∂V²)_T/(∂P/∂V)_T]
 * (G. Venkatarathnam, L. R. Oellrich, Fluid Phase Equilib. 301 (2011) 225–233): Π > 1 is
 * liquid(-like), Π ≤ 1 vapour(-like). It names the phase of a single root, including at
 * supercritical conditions and for a mixture of fixed composition.
 */
function phaseIdentificationParameter(eos: CubicEos, p: EosParameters, t: number, v: number): number {
  const { a, b, dadT } = p;
  const d = (v + eos.epsilon * b) * (v + eos.sigma * b);
  const dPrime = 2 * v + (eos.epsilon + eos.sigma) * b;
  const free = v - b;
  const dPdT = R / free - dadT / d;
  const dPdV = (-R * t) / (free * free) + (a * dPrime) / (d * d);
  const d2PdV2 = (2 * R * t) / free ** 3 + a * (2 / (d * d) - (2 * dPrime * dPrime) / d ** 3);
  const d2PdVdT = -R / (free * free) + (dadT * dPrime) / (d * d);
  return v * (d2PdVdT / dPdT - d2PdV2 / dPdV);
}

export interface RootState {
  z: number;
  /** m3/mol */
  molarVolume: number;
  lnPhi: number;
}

export type PhaseLabel = 'vapor' | 'liquid' | 'supercritical' | 'vapor-like' | 'liquid-like';

interface PureState {
  eos: CubicEos;
  parameters: EosParameters;
  A: number;
  B: number;
  /** Every real root with V > b, ascending (a middle root of three is mechanically unstable). */
  zRoots: number[];
  /** The smallest root when there are several. */
  liquid?: RootState;
  /** The largest root when there are several. */
  vapor?: RootState;
  /** The only root when there is one. */
  single?: RootState;
  /** Phase of the stable root. */
  stable: 'liquid' | 'vapor' | 'single';
  label: PhaseLabel;
  warnings: string[];
}

/** How the generic near-critical warning begins (service_eos_state replaces it by the measured one). */
export const NEAR_CRITICAL_WARNING = 'Near the critical point';

/**
 * |ln(f_liquid/f_vapour)| below this means the pressure is within about 1% of the equation's own
 * saturation pressure: which phase is stable then depends on digits the equation does not have.
 */
const NEAR_SATURATION = 0.01;

/**
 * State of a pure fluid at t (K) and pressure (Pa). With two candidate roots the stable one is the one
 * with the lower fugacity (the same pressure, so the lower fugacity coefficient): it has the lower
 * Gibbs energy. With one root: supercritical when T ≥ Tc and P ≥ Pc, otherwise liquid or vapour by
 * the phase identification parameter.
 */
export function pureState(eos: CubicEos, c: CriticalConstants, t: number, pressure: number): PureState {
  const parameters = pureParameters(eos, c, t);
  const { A, B } = dimensionless(parameters, t, pressure);
  const zRoots = compressibilityRoots(eos, A, B);
  const root = (z: number): RootState => ({
    z,
    molarVolume: (z * R * t) / pressure,
    lnPhi: lnFugacityCoefficient(eos, z, A, B),
  });
  const warnings = alphaWarnings(eos, [c], t);
  const tr = t / c.tc;
  const pr = pressure / c.pc;
  if (Math.abs(tr - 1) <= 0.05 && Math.abs(pr - 1) <= 0.2) {
    warnings.push(
      `${NEAR_CRITICAL_WARNING} (Tr = ${tr.toFixed(3)}, Pr = ${pr.toFixed(3)}): cubic equations of state predict Zc = ${eos.zc.toFixed(3)} against 0.23–0.29 for real fluids, so densities here may be off by 10% or more.`,
    );
  }

  const base = { eos, parameters, A, B, zRoots };
  if (zRoots.length === 1) {
    const single = root(zRoots[0]);
    let label: PhaseLabel;
    if (t >= c.tc && pressure >= c.pc) label = 'supercritical';
    else label = phaseIdentificationParameter(eos, parameters, t, single.molarVolume) > 1 ? 'liquid' : 'vapor';
    return { ...base, single, stable: 'single', label, warnings };
  }

  const liquid = root(zRoots[0]);
  const vapor = root(zRoots[zRoots.length - 1]);
  const stable = liquid.lnPhi < vapor.lnPhi ? 'liquid' : 'vapor';
  let label: PhaseLabel = stable;
  if (Math.abs(liquid.lnPhi - vapor.lnPhi) < NEAR_SATURATION) {
    label = stable === 'liquid' ? 'liquid-like' : 'vapor-like';
    warnings.push(
      `Near saturation: the liquid and vapour fugacities differ by ${(100 * Math.abs(Math.expm1(liquid.lnPhi - vapor.lnPhi))).toFixed(2)}%, so the pressure is within about 1% of this equation's saturation pressure; the ${stable} root is stable by a margin smaller than the equation's accuracy.`,
    );
  }
  return { ...base, liquid, vapor, stable, label, warnings };
}

/**
 * The Soave α of SRK and Peng–Robinson falls with temperature to zero at √Tr = 1 + 1/m and rises
 * again beyond: physically meaningless, and reached near room temperature by H2 and He (Tr ≈ 9–60).
 */
function alphaWarnings(eos: CubicEos, components: readonly CriticalConstants[], t: number): string[] {
  if (!eos.usesAcentricFactor) return [];
  return components
    .filter((c) => eos.alpha(t / c.tc, c.acentric ?? 0).dAlphaDTr >= 0)
    .map((c) => {
      const tr = (t / c.tc).toFixed(1);
      return `At Tr = ${tr} (Tc = ${c.tc} K) the ${eos.name} α function has passed its minimum and grows with temperature, which is unphysical: the attraction term, and what depends on it, is unreliable.`;
    });
}

export interface MixtureRootState extends RootState {
  /** ln φ_k of each component. */
  lnPhiComponents: number[];
  /** Σ x_k·ln φ_k = residual Gibbs energy G^R/(R·T) of the mixture. */
  residualGibbs: number;
}

interface MixtureState {
  eos: CubicEos;
  parameters: MixtureParameters;
  A: number;
  B: number;
  zRoots: number[];
  liquid?: MixtureRootState;
  vapor?: MixtureRootState;
  single?: MixtureRootState;
  stable: 'liquid' | 'vapor' | 'single';
  /**
   * vapor/liquid: one root, named by the phase identification parameter. vapor-like/liquid-like:
   * two candidate roots, the one with the lower Gibbs energy; the mixture may in fact split.
   */
  label: 'vapor' | 'liquid' | 'vapor-like' | 'liquid-like';
  warnings: string[];
}

/**
 * State of a mixture of fixed composition x at t (K) and pressure (Pa), as one phase. Which of
 * two roots is lower in Gibbs energy is decided by Σ x_k·ln φ_k; whether the mixture splits into two
 * phases needs a flash calculation, which this function does not do.
 */
export function mixtureState(
  eos: CubicEos,
  components: readonly CriticalConstants[],
  x: readonly number[],
  kij: readonly (readonly number[])[],
  t: number,
  pressure: number,
): MixtureState {
  const parameters = mixtureParameters(eos, components, x, kij, t);
  const { A, B } = dimensionless(parameters, t, pressure);
  const zRoots = compressibilityRoots(eos, A, B);
  const root = (z: number): MixtureRootState => {
    const lnPhiComponents = lnFugacityCoefficientsInMixture(eos, z, A, B, parameters);
    const residualGibbs = lnPhiComponents.reduce((sum, lnPhi, k) => sum + x[k] * lnPhi, 0);
    return { z, molarVolume: (z * R * t) / pressure, lnPhi: residualGibbs, lnPhiComponents, residualGibbs };
  };
  const base = { eos, parameters, A, B, zRoots, warnings: alphaWarnings(eos, components, t) };
  if (zRoots.length === 1) {
    const single = root(zRoots[0]);
    const label = phaseIdentificationParameter(eos, parameters, t, single.molarVolume) > 1 ? 'liquid' : 'vapor';
    return { ...base, single, stable: 'single', label };
  }
  const liquid = root(zRoots[0]);
  const vapor = root(zRoots[zRoots.length - 1]);
  const stable = liquid.residualGibbs < vapor.residualGibbs ? 'liquid' : 'vapor';
  return { ...base, liquid, vapor, stable, label: stable === 'liquid' ? 'liquid-like' : 'vapor-like' };
}

/**
 * Kay's rule (W. B. Kay, Density of Hydrocarbon Gases and Vapors at High Temperature and Pressure,
 * Ind. Eng. Chem. 28 (1936) 1014–1019): pseudo-critical Tpc = Σ x_i·Tc_i and Ppc = Σ x_i·Pc_i, in the
 * units of the inputs. Example: 50/50 methane (190.56 K, 45.99 bar) / ethane (305.32 K, 48.72 bar)
 * → 247.94 K, 47.355 bar.
 */
export function kayPseudoCritical(
  components: readonly { tc: number; pc: number }[],
  x: readonly number[],
): { tpc: number; ppc: number } {
  return {
    tpc: components.reduce((sum, c, i) => sum + x[i] * c.tc, 0),
    ppc: components.reduce((sum, c, i) => sum + x[i] * c.pc, 0),
  };
}

/** Mass density, kg/m3, of a molar volume v (m3/mol) for molar mass m (g/mol). */
export function massDensity(v: number, m: number): number {
  return m / 1000 / v;
}
