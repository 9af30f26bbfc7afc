/**
 * Brent's root finder: the zero of a continuous f on [a, b] where f(a) and f(b) differ in sign.
 * Inverse quadratic interpolation and secant steps where they make progress, bisection where they
 * do not, so it never leaves the bracket and converges at least as surely as bisection.
 *
 * Source: R. P. Brent, Algorithms for Minimization without Derivatives, Prentice-Hall, 1973, ch. 4
 * (procedure zero); the same algorithm as W. H. Press et al., Numerical Recipes, 3rd ed., §9.3.
 */

interface BrentOptions {
  /** Absolute tolerance on x (same unit as x). */
  xTolerance?: number;
  maxIterations?: number;
}

/** Throws RangeError when f(a) and f(b) have the same sign (the caller must bracket the root). */
export function brentRoot(
  f: (x: number) => number,
  a: number,
  b: number,
  { xTolerance = 1e-10, maxIterations = 200 }: BrentOptions = {},
): number {
  let fa = f(a);
  let fb = f(b);
  if (fa === 0) return a;
  if (fb === 0) return b;
  if (!(Number.isFinite(fa) && Number.isFinite(fb)) || Math.sign(fa) === Math.sign(fb)) {
    throw new RangeError(`brentRoot: f(${a}) = ${fa} and f(${b}) = ${fb} do not bracket a root`);
  }
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let i = 0; i < maxIterations; i++) {
    if (Math.sign(fb) === Math.sign(fc)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      [a, b, c] = [b, c, b];
      [fa, fb, fc] = [fb, fc, fb];
    }
    const tolerance = 2 * Number.EPSILON * Math.abs(b) + 0.5 * xTolerance;
    const half = 0.5 * (c - b);
    if (Math.abs(half) <= tolerance || fb === 0) return b;
    if (Math.abs(e) >= tolerance && Math.abs(fa) > Math.abs(fb)) {
      // Interpolate: secant when only two distinct points, inverse quadratic otherwise.
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * half * s;
        q = 1 - s;
      } else {
        const qa = fa / fc;
        const r = fb / fc;
        p = s * (2 * half * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * half * q - Math.abs(tolerance * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = half;
        e = d;
      }
    } else {
      d = half;
      e = d;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tolerance ? d : Math.sign(half) * tolerance;
    fb = f(b);
  }
  throw new RangeError(`brentRoot: no convergence in ${maxIterations} iterations`);
}
