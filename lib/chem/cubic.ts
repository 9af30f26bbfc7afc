/**
 * Real roots of a monic cubic x³ + c2·x² + c1·x + c0 = 0, the polynomial every cubic equation of
 * state reduces to in Z.
 *
 * Method: Cardano's formula for one real root and Viète's trigonometric form for three (e.g. Press
 * et al., Numerical Recipes, 3rd ed., 2007, §5.6), written in the cancellation-free form, then each
 * root polished by Newton steps on the original polynomial. The polish matters for equations of
 * state: the liquid root of a gas at low pressure is a few thousandths while the vapour root is
 * near 1, and the closed form alone loses digits of the small one.
 *
 * Example: x³ − 6x² + 11x − 6 = (x − 1)(x − 2)(x − 3) → realCubicRoots(−6, 11, −6) = [1, 2, 3].
 */

/** Distinct real roots, ascending. A double root (a tangent point) is reported once. */
export function realCubicRoots(c2: number, c1: number, c0: number): number[] {
  // Depressed cubic t³ + p·t + q = 0 with x = t − c2/3.
  const shift = -c2 / 3;
  const p = c1 - (c2 * c2) / 3;
  const q = (2 * c2 * c2 * c2) / 27 - (c2 * c1) / 3 + c0;
  const discriminant = (q * q) / 4 + (p * p * p) / 27;

  let roots: number[];
  if (p === 0 && q === 0) {
    roots = [shift];
  } else if (discriminant > 0) {
    // One real root. Choosing the sign of the cube root's argument as −sign(q) avoids subtracting
    // nearly equal numbers; the second term follows from u·v = −p/3.
    const u = -Math.sign(q || 1) * Math.cbrt(Math.abs(q) / 2 + Math.sqrt(discriminant));
    roots = [u - p / (3 * u) + shift];
  } else {
    const r = 2 * Math.sqrt(-p / 3);
    const cosine = Math.min(1, Math.max(-1, ((3 * q) / (2 * p)) * Math.sqrt(-3 / p)));
    const theta = Math.acos(cosine) / 3;
    roots = [0, 1, 2].map((k) => r * Math.cos(theta - (2 * Math.PI * k) / 3) + shift);
  }

  const polished = roots.map((x) => polish(x, c2, c1, c0)).sort((a, b) => a - b);
  return polished.filter((x, i) => i === 0 || x - polished[i - 1] > 1e-12 * Math.max(1, Math.abs(x)));
}

/** Newton steps while they improve the residual; a root at a tangent point (f' = 0) is left as it is. */
function polish(x: number, c2: number, c1: number, c0: number): number {
  const f = (y: number) => ((y + c2) * y + c1) * y + c0;
  let best = x;
  let residual = Math.abs(f(x));
  for (let i = 0; i < 8 && residual > 0; i++) {
    const derivative = (3 * best + 2 * c2) * best + c1;
    if (derivative === 0) break;
    const next = best - f(best) / derivative;
    const nextResidual = Math.abs(f(next));
    if (!(nextResidual < residual)) break;
    best = next;
    residual = nextResidual;
  }
  return best;
}
