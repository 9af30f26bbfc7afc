/**
 * How many significant digits a computed value keeps: what its method supports, so an answer does not
 * claim more than it knows (38.845220548933156 kPa from a fit good to 1 % is 38.85 kPa). Data read from a
 * source keeps the digits the source gives; every answer is capped at 10 digits (lib/mcp/compact-answer.ts).
 * docs/tools.md ("Precision") gives the same table to users.
 */
export const SIGNIFICANT_DIGITS = {
  /** Multiparameter reference equations of state (Helmholtz, IAPWS): uncertainties of 0.001–0.1 %. */
  referenceEquation: 6,
  /** NASA 7-coefficient polynomials: reproduce their thermochemical tables to about 0.01 %. */
  polynomialFit: 5,
  /** Fitted correlations (DIPPR, Antoine, Wagner, Rackett) and corresponding-states rules: 0.1–5 %. */
  correlation: 4,
  /** Cubic equations of state (vdW, RK, SRK, PR): densities off by 1–10 %; 4 digits keep derived values consistent. */
  cubicEquation: 4,
  /** Group-contribution estimates (Joback–Reid): errors of several percent. */
  groupContribution: 3,
} as const;

export type PrecisionClass = keyof typeof SIGNIFICANT_DIGITS;

/** Which methods each class covers and why it keeps that many digits: docs/tools.md's precision table. */
export const PRECISION_BASIS: Record<PrecisionClass, { methods: string; why: string }> = {
  referenceEquation: {
    methods: 'multiparameter reference equations of state (Helmholtz energy), IAPWS-95 and IAPWS-IF97',
    why: 'uncertainties of 0.001–0.1 % in density, vapour pressure and heat capacity',
  },
  polynomialFit: {
    methods: 'NASA 7-coefficient polynomials (ideal-gas cp, h, s)',
    why: 'they reproduce the thermochemical tables they were fitted to within about 0.01 %',
  },
  correlation: {
    methods: 'fitted correlations (DIPPR, Antoine, Wagner, Rackett) and corresponding-states rules (Lee–Kesler)',
    why: 'they reproduce their data to 0.1–5 %',
  },
  cubicEquation: {
    methods: 'cubic equations of state (van der Waals, Redlich–Kwong, SRK, Peng–Robinson) and mixing rules',
    why: 'densities are off by 1–10 %; four digits keep derived values consistent with each other',
  },
  groupContribution: {
    methods: 'group-contribution estimates (Joback–Reid)',
    why: 'errors of several percent, often more',
  },
};

/** `x` to the significant digits its method supports. */
export function toMethodPrecision(x: number, method: PrecisionClass): number {
  return Number.isFinite(x) && x !== 0 ? Number(x.toPrecision(SIGNIFICANT_DIGITS[method])) : x;
}

/** `value` rounded to `digits` decimal places (for reported values whose precision the method sets). */
export function roundTo(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
