/**
 * Vapour pressure of a pure liquid: the two stored correlation forms (Antoine, Wagner) and two
 * corresponding-states estimates from Tc, Pc and ω (Lee–Kesler, Ambrose–Walton), each with its
 * inverse (saturation temperature at a given pressure). Pure functions in SI: T in K, P in Pa.
 * The forms' definitions, with coefficients as stored in the data, are in ./correlations.ts.
 */
import { brentRoot } from './brent.ts';

const BAR = 1e5;

interface AntoineCoefficients {
  A: number;
  B: number;
  C: number;
}

/**
 * Antoine equation, NIST WebBook form: log10(P/bar) = A − B/(T/K + C). Returns Pa.
 * Source: C. Antoine, C. R. Acad. Sci. 107 (1888) 681; coefficients in the WebBook's convention
 * (NIST Chemistry WebBook, SRD 69, "Antoine Equation Parameters").
 * Worked example: water, A = 5.08354, B = 1663.125, C = −45.622 (Bridgeman & Aldrich 1964, fitted
 * 344–373 K, as listed by the WebBook) at 373.15 K → 1.0133 bar.
 */
export function antoinePressure({ A, B, C }: AntoineCoefficients, temperature: number): number {
  return BAR * 10 ** (A - B / (temperature + C));
}

/** Inverse of antoinePressure: T (K) = B/(A − log10(P/bar)) − C, for P in Pa. */
export function antoineTemperature({ A, B, C }: AntoineCoefficients, pressure: number): number {
  return B / (A - Math.log10(pressure / BAR)) - C;
}

interface WagnerCoefficients {
  a: number;
  b: number;
  c: number;
  d: number;
}

/**
 * Wagner equation, "2.5-5" form: ln(P/Pc) = (a·τ + b·τ^1.5 + c·τ^2.5 + d·τ^5)/Tr, τ = 1 − Tr,
 * Tr = T/Tc, with the Tc (K) and Pc (Pa) the coefficients were fitted with. Returns Pa.
 * Defined up to Tc (where it gives Pc); throws RangeError above.
 * Source: W. Wagner, Cryogenics 13 (1973) 470; this form as in Poling, Prausnitz & O'Connell,
 * The Properties of Gases and Liquids, 5th ed. (2001), Eq. 7-3.3.
 * Worked example: methane, Poling's coefficients a = −6.02242, b = 1.26652, c = −0.5707,
 * d = −1.366 with Tc = 190.551 K, Pc = 45.992 bar, at 100 K → 34415.0 Pa.
 */
export function wagnerPressure(
  { a, b, c, d }: WagnerCoefficients,
  criticalTemperature: number,
  criticalPressure: number,
  temperature: number,
): number {
  if (temperature > criticalTemperature) {
    throw new RangeError(`Wagner equation: T = ${temperature} K is above its Tc = ${criticalTemperature} K`);
  }
  const tr = temperature / criticalTemperature;
  const tau = 1 - tr;
  return criticalPressure * Math.exp((a * tau + b * tau ** 1.5 + c * tau ** 2.5 + d * tau ** 5) / tr);
}

/** Inverse of wagnerPressure: the T (K) at which it gives P (Pa); P ≤ Pc. Solved with Brent's method on ln P. */
export function wagnerTemperature(
  coefficients: WagnerCoefficients,
  criticalTemperature: number,
  criticalPressure: number,
  pressure: number,
): number {
  return solveReduced(
    (t) => wagnerPressure(coefficients, criticalTemperature, criticalPressure, t),
    criticalTemperature,
    criticalPressure,
    pressure,
    'Wagner equation',
  );
}

/**
 * Where the Lee–Kesler vapour-pressure correlation holds, in reduced temperature Tr = T/Tc: Lee and Kesler
 * built their three-parameter correlation over 0.30 ≤ Tr ≤ 4.00 (the span of their generalized tables,
 * B. I. Lee, M. G. Kesler, AIChE J. 21 (1975) 510, reproduced in Smith, Van Ness & Abbott, Introduction to
 * Chemical Engineering Thermodynamics, App. E); a vapour pressure exists only up to Tr = 1.
 */
export const LEE_KESLER_REDUCED_RANGE = { min: 0.3, max: 1 } as const;

/**
 * Lee–Kesler generalized vapour-pressure correlation from Tc (K), Pc (Pa) and ω: ln(P/Pc) = f0 + ω·f1,
 *   f0 = 5.92714 − 6.09648/Tr − 1.28862·ln Tr + 0.169347·Tr^6,
 *   f1 = 15.2518 − 15.6875/Tr − 13.4721·ln Tr + 0.43577·Tr^6.  Returns Pa.
 * Source: B. I. Lee, M. G. Kesler, AIChE J. 21 (1975) 510; Poling et al., 5th ed., §7-4, Eqs. 7-4.1 to 7-4.3.
 * Worked example (Reid, Prausnitz & Poling, 4th ed., Example 7-2): ethylbenzene, Tc = 617.1 K,
 * Pc = 36 bar, ω = 0.299, at 347.2 K → 13.08 kPa.
 */
export function leeKeslerPressure(
  criticalTemperature: number,
  criticalPressure: number,
  acentricFactor: number,
  temperature: number,
): number {
  const tr = temperature / criticalTemperature;
  const lnTr = Math.log(tr);
  const tr6 = tr ** 6;
  const f0 = 5.92714 - 6.09648 / tr - 1.28862 * lnTr + 0.169347 * tr6;
  const f1 = 15.2518 - 15.6875 / tr - 13.4721 * lnTr + 0.43577 * tr6;
  return criticalPressure * Math.exp(f0 + acentricFactor * f1);
}

/** Inverse of leeKeslerPressure: the T (K) at which it gives P (Pa); P < Pc. */
export function leeKeslerTemperature(
  criticalTemperature: number,
  criticalPressure: number,
  acentricFactor: number,
  pressure: number,
): number {
  return solveReduced(
    (t) => leeKeslerPressure(criticalTemperature, criticalPressure, acentricFactor, t),
    criticalTemperature,
    criticalPressure,
    pressure,
    'Lee–Kesler correlation',
  );
}

/**
 * Ambrose–Walton corresponding-states correlation from Tc (K), Pc (Pa) and ω:
 * ln(P/Pc) = f0 + ω·f1 + ω²·f2, each f = (k1·τ + k2·τ^1.5 + k3·τ^2.5 + k4·τ^5)/Tr, τ = 1 − Tr, with
 *   f0: −5.97616, 1.29874, −0.60394, −1.06841;  f1: −5.03365, 1.11505, −5.41217, −7.46628;
 *   f2: −0.64771, 2.41539, −4.26979, 3.25259.  Returns Pa; exactly Pc at Tc.
 * Source: D. Ambrose, J. Walton, Pure Appl. Chem. 61 (1989) 1395; Poling et al., 5th ed., §7-4.
 * Worked example (Poling et al., 5th ed., Example 7-2): ethylbenzene, Tc = 617.15 K, Pc = 36.09 bar,
 * ω = 0.304, at 347.25 K → 13.28 kPa.
 */
export function ambroseWaltonPressure(
  criticalTemperature: number,
  criticalPressure: number,
  acentricFactor: number,
  temperature: number,
): number {
  const tr = temperature / criticalTemperature;
  const tau = 1 - tr;
  const t15 = tau ** 1.5;
  const t25 = tau ** 2.5;
  const t5 = tau ** 5;
  const f0 = -5.97616 * tau + 1.29874 * t15 - 0.60394 * t25 - 1.06841 * t5;
  const f1 = -5.03365 * tau + 1.11505 * t15 - 5.41217 * t25 - 7.46628 * t5;
  const f2 = -0.64771 * tau + 2.41539 * t15 - 4.26979 * t25 + 3.25259 * t5;
  return criticalPressure * Math.exp((f0 + acentricFactor * (f1 + acentricFactor * f2)) / tr);
}

/**
 * The temperature below Tc at which an increasing P(T) reaches `pressure`: Brent's method on
 * ln P(T) − ln P over a bracket widened downwards from 0.5·Tc until it holds the root.
 */
function solveReduced(p: (t: number) => number, tc: number, pc: number, pressure: number, name: string): number {
  if (!(pressure > 0 && pressure <= pc))
    throw new RangeError(`${name}: P = ${pressure} Pa is not in (0, Pc = ${pc} Pa]`);
  const target = Math.log(pressure);
  const f = (t: number) => Math.log(p(t)) - target;
  if (f(tc) < 0) throw new RangeError(`${name}: P = ${pressure} Pa is above its value at Tc`);
  let low = 0.5 * tc;
  while (f(low) > 0) {
    low *= 0.5;
    if (low < 1e-3 * tc) throw new RangeError(`${name}: P = ${pressure} Pa is below its value at 0.001·Tc`);
  }
  return brentRoot(f, low, tc, { xTolerance: 1e-9 * tc });
}
