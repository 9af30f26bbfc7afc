/**
 * The temperature-correlation forms of the ChemSep pure-component data (its equation numbers follow
 * the DIPPR 801 numbering), as pure functions of T in K. Each returns the quantity in the unit its
 * coefficients were fitted in (the caller converts: Pa, kmol/m3, J/kmol, J/(kmol·K)).
 *
 *   4    Y = A + B·T + C·T² + D·T³
 *   5    Y = A + B·T + C·T² + D·T³ + E·T⁴
 *   10   Y = exp(A − B/(T + C))                           (Antoine, natural log)
 *   16   Y = A + exp(B/T + C + D·T + E·T²)
 *   100  Y = A + B·T + C·T² + D·T³ + E·T⁴
 *   101  Y = exp(A + B/T + C·ln T + D·T^E)
 *   105  Y = A / B^(1 + (1 − T/C)^D)
 *   106  Y = A·(1 − Tr)^(B + C·Tr + D·Tr² + E·Tr³),  Tr = T/Tc
 *
 * Sources: H. Kooijman, R. Taylor, The ChemSep Book, 2nd ed. (2006), ch. "Pure component
 * properties" (the equation numbers and forms); Design Institute for Physical Properties (DIPPR),
 * Project 801 data compilation (forms 100–106). Worked example, ChemSep 8.32's water: eq 106
 * liquid density A = 32.51621, B = −3.213004, C = 7.92411, D = −7.359898, E = 2.703522 kmol/m3 with
 * Tc = 647.14 K, at 298.15 K → 55.32 kmol/m3 (996.6 kg/m3; measured 997.0).
 */

export type DipprForm = 4 | 5 | 10 | 16 | 100 | 101 | 105 | 106;

export const DIPPR_FORMS: Record<DipprForm, string> = {
  4: 'Y = A + B·T + C·T² + D·T³',
  5: 'Y = A + B·T + C·T² + D·T³ + E·T⁴',
  10: 'Y = exp(A − B/(T + C))',
  16: 'Y = A + exp(B/T + C + D·T + E·T²)',
  100: 'Y = A + B·T + C·T² + D·T³ + E·T⁴',
  101: 'Y = exp(A + B/T + C·ln T + D·T^E)',
  105: 'Y = A/B^(1 + (1 − T/C)^D)',
  106: 'Y = A·(1 − Tr)^(B + C·Tr + D·Tr² + E·Tr³), Tr = T/Tc',
};

export interface DipprEquation {
  form: DipprForm;
  /** A…E; a coefficient the form does not use is absent or ignored; a missing one counts as 0. */
  coefficients: Partial<Record<'A' | 'B' | 'C' | 'D' | 'E', number>>;
  /** The critical temperature (K) form 106 is reduced with. */
  criticalTemperature?: number;
}

export function isDipprForm(eqno: number): eqno is DipprForm {
  return Object.hasOwn(DIPPR_FORMS, eqno);
}

/** The equation's value at T (K), in the unit its coefficients were fitted in. */
export function dipprValue({ form, coefficients, criticalTemperature }: DipprEquation, t: number): number {
  const { A = 0, B = 0, C = 0, D = 0, E = 0 } = coefficients;
  switch (form) {
    case 4:
      return A + t * (B + t * (C + t * D));
    case 5:
    case 100:
      return A + t * (B + t * (C + t * (D + t * E)));
    case 10:
      return Math.exp(A - B / (t + C));
    case 16:
      return A + Math.exp(B / t + C + D * t + E * t * t);
    case 101:
      return Math.exp(A + B / t + C * Math.log(t) + D * t ** E);
    case 105:
      return A / B ** (1 + (1 - t / C) ** D);
    case 106: {
      if (criticalTemperature === undefined) throw new Error('DIPPR equation 106 needs the critical temperature');
      const tr = t / criticalTemperature;
      return A * (1 - tr) ** (B + tr * (C + tr * (D + tr * E)));
    }
  }
}

// 10-point Gauss–Legendre nodes and weights on [−1, 1].
const GAUSS_NODES = [
  -0.9739065285171717, -0.8650633666889845, -0.6794095682990244, -0.4333953941292472, -0.1488743389816312,
  0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845, 0.9739065285171717,
];
const GAUSS_WEIGHTS = [
  0.0666713443086881, 0.1494513491505806, 0.219086362515982, 0.2692667193099963, 0.2955242247147529, 0.2955242247147529,
  0.2692667193099963, 0.219086362515982, 0.1494513491505806, 0.0666713443086881,
];

/**
 * ∫ f(T) dT from `from` to `to` by composite 10-point Gauss–Legendre over pieces of at most 50 K: exact
 * for polynomials of degree ≤ 19 and within 1e-10 relative for the smooth heat-capacity forms here.
 */
export function integrate(f: (t: number) => number, from: number, to: number): number {
  if (from === to) return 0;
  const pieces = Math.max(1, Math.ceil(Math.abs(to - from) / 50));
  const width = (to - from) / pieces;
  let sum = 0;
  for (let i = 0; i < pieces; i++) {
    const mid = from + (i + 0.5) * width;
    for (let k = 0; k < GAUSS_NODES.length; k++) sum += GAUSS_WEIGHTS[k] * f(mid + 0.5 * width * GAUSS_NODES[k]);
  }
  return 0.5 * width * sum;
}
