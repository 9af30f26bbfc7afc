/**
 * Saturation line of ordinary water, IAPWS-IF97 region 4: the saturation-pressure equation
 * Psat(T) (Eq. 30) and its backward companion Tsat(P) (Eq. 31), from the basic equation
 * (Eq. 29), a quadratic in β = (p/p*)^¼ and ϑ = T/T* + n9/(T/T* − n10), p* = 1 MPa, T* = 1 K.
 * The two are consistent to within the round-off of the coefficients (IF97 §8.1).
 *
 * Source: IAPWS R7-97(2012), Revised Release on the IAPWS Industrial Formulation 1997 for the
 * Thermodynamic Properties of Water and Steam, §8 (region 4), Table 34 (coefficients); worked
 * examples from its Tables 35 and 36 (tested in iapws97.test.ts):
 *   Psat(300 K) = 3.53658941e-3 MPa, Psat(500 K) = 2.63889776 MPa, Psat(600 K) = 12.3443146 MPa;
 *   Tsat(0.1 MPa) = 372.755919 K, Tsat(1 MPa) = 453.035632 K, Tsat(10 MPa) = 584.149488 K.
 * Valid from the triple point region to the critical point: 273.15 K ≤ T ≤ 647.096 K,
 * 611.213 Pa ≤ P ≤ 22.064 MPa. SI units throughout: T in K, P in Pa.
 */

export const IF97_SOURCE =
  'IAPWS R7-97(2012), Revised Release on the IAPWS Industrial Formulation 1997 for the Thermodynamic Properties of Water and Steam, region 4 (saturation line), Eqs. 30 and 31';

/** Range of Eq. 30 (K) and of Eq. 31 (Pa): from 273.15 K (Psat 611.213 Pa) to the critical point. */
export const IF97_SATURATION_TEMPERATURE_RANGE = { min: 273.15, max: 647.096 } as const;
export const IF97_SATURATION_PRESSURE_RANGE = { min: 611.213, max: 22.064e6 } as const;

/** Table 34, n1 … n10. */
const N = [
  0.11670521452767e4, -0.72421316703206e6, -0.17073846940092e2, 0.1202082470247e5, -0.32325550322333e7,
  0.1491510861353e2, -0.48232657361591e4, 0.40511340542057e6, -0.23855557567849, 0.65017534844798e3,
] as const;
const [n1, n2, n3, n4, n5, n6, n7, n8, n9, n10] = N;

/** p* of Eqs. 30 and 31, Pa. */
const P_STAR = 1e6;

/**
 * IAPWS-IF97 Eq. 30: saturation pressure of water (Pa) at temperature T (K).
 * The formula is the IF97 one outside 273.15–647.096 K too; callers must say when they extrapolate.
 */
export function if97SaturationPressure(temperature: number): number {
  const theta = temperature + n9 / (temperature - n10);
  const A = theta * theta + n1 * theta + n2;
  const B = n3 * theta * theta + n4 * theta + n5;
  const C = n6 * theta * theta + n7 * theta + n8;
  return P_STAR * ((2 * C) / (-B + Math.sqrt(B * B - 4 * A * C))) ** 4;
}

/**
 * IAPWS-IF97 Eq. 31: saturation temperature of water (K) at pressure P (Pa).
 * The formula is the IF97 one outside 611.213 Pa–22.064 MPa too; callers must say when they extrapolate.
 */
export function if97SaturationTemperature(pressure: number): number {
  const beta = (pressure / P_STAR) ** 0.25;
  const E = beta * beta + n3 * beta + n6;
  const F = n1 * beta * beta + n4 * beta + n7;
  const G = n2 * beta * beta + n5 * beta + n8;
  const D = (2 * G) / (-F - Math.sqrt(F * F - 4 * E * G));
  return (n10 + D - Math.sqrt((n10 + D) ** 2 - 4 * (n9 + n10 * D))) / 2;
}
