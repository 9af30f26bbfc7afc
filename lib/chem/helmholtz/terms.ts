/**
 * The reduced Helmholtz energy of a multiparameter equation of state, α(δ, τ) = α⁰(δ, τ) + αʳ(δ, τ),
 * δ = ρ/ρr, τ = Tr/T, and the derivatives the thermodynamic properties need. One evaluator for every
 * fluid: the terms are read from the coefficient files (./fluid-file.ts) in CoolProp's term types.
 *
 * Residual terms:
 *   exponential  n·δ^d·τ^t·exp(−c·δ^l − ω·τ^m)    CoolProp's Power (c = 1, or 0 when l = 0; ω = 0),
 *                                                Exponential (c = g), Lemmon2005 (c = ω = 1) and
 *                                                DoubleExponential (c = gd, l = ld, ω = gt, m = lt);
 *                                                a part with l = 0 (or m = 0) is absent, as in CoolProp
 *   gaussian     n·δ^d·τ^t·exp(−η(δ − ε)² − β(τ − γ)²)
 *   gaoB         n·δ^d·τ^t·exp(η(δ − ε)² + 1/(β(τ − γ)² + b))   (ammonia: Gao et al., J. Phys. Chem. Ref.
 *                                                Data 49 (2020) 043102, Eq. 3; η < 0 there)
 *   nonAnalytic  n·Δ^b·δ·ψ,  Δ = θ² + B·[(δ−1)²]^a,  θ = (1 − τ) + A·[(δ−1)²]^(1/(2β)),
 *                ψ = exp(−C(δ−1)² − D(τ−1)²)      (the critical-region terms of IAPWS-95 and Span–Wagner)
 * Ideal part: ln δ + a1 + a2·τ (lead, and enthalpy–entropy offsets), a·ln τ, Σ n·τ^t,
 *   Σ n·ln(1 − exp(−t·τ)) (Planck–Einstein), Σ n·ln(c + d·exp(t·τ)) (generalized; CoolProp's
 *   PlanckEinsteinFunctionT has t = −v/Tc, c = 1, d = −1, and the Aly–Lee sinh and cosh terms of cp°
 *   become n = C, t = −2D/Tc, c = 1, d = ∓1), and the terms of a cp° polynomial (below).
 * A cp° polynomial, cp°/R = Σ c·T^t with T = Tc/τ, enters α⁰ as −τ·I₁(τ) + I₂(τ), where
 *   I₁ = ∫_{τ0}^{τ} (cp°/R)/τ′² dτ′ and I₂ = ∫_{τ0}^{τ} (cp°/R)/τ′ dτ′, τ0 = Tc/T0,
 * so that α⁰τ = −I₁ and α⁰ττ = −(cp°/R)/τ² (the ideal-gas relation cp°/R = 1 − τ²α⁰ττ with the 1
 * carried by the other terms); T0 and the integration constants set the reference state only.
 * Sources: W. Wagner, A. Pruß, J. Phys. Chem. Ref. Data 31 (2002) 387 (the forms and, Table 6.5 there /
 * IAPWS R6-95(2018) Table 5, the derivatives of the non-analytic terms); E. W. Lemmon, R. Span,
 * J. Chem. Eng. Data 51 (2006) 785; I. H. Bell et al., Ind. Eng. Chem. Res. 53 (2014) 2498 (CoolProp's
 * term types). The derivatives of the other terms are elementary: for f = n·exp(g(δ) + h(τ)),
 * f_δ = f·g′, f_δδ = f·(g′² + g″), f_δτ = f·g′·h′, and the same in τ.
 */

export interface ResidualTerms {
  exponential: { n: number[]; d: number[]; t: number[]; c: number[]; l: number[]; omega: number[]; m: number[] };
  gaussian: {
    n: number[];
    d: number[];
    t: number[];
    eta: number[];
    epsilon: number[];
    beta: number[];
    gamma: number[];
  };
  gaoB: {
    n: number[];
    d: number[];
    t: number[];
    eta: number[];
    epsilon: number[];
    beta: number[];
    gamma: number[];
    b: number[];
  };
  nonAnalytic: {
    n: number[];
    a: number[];
    b: number[];
    beta: number[];
    A: number[];
    B: number[];
    C: number[];
    D: number[];
  };
}

export interface IdealTerms {
  /** α⁰ ⊃ a1 + a2·τ (lead term and offsets, summed). */
  a1: number;
  a2: number;
  /** α⁰ ⊃ logTau·ln τ. */
  logTau: number;
  power: { n: number[]; t: number[] };
  planckEinstein: { n: number[]; t: number[] };
  generalized: { n: number[]; t: number[]; c: number[]; d: number[] };
  /** cp°/R ⊃ c·T^t, T = tc/τ, integrated from T0 (K). */
  cp0: { c: number[]; t: number[]; tc: number[]; t0: number[] };
}

/** αʳ and its derivatives at (δ, τ): value, ∂δ, ∂δδ, ∂τ, ∂ττ, ∂δτ (plain partial derivatives). */
interface Derivatives {
  a: number;
  d: number;
  dd: number;
  t: number;
  tt: number;
  dt: number;
}

/** α⁰ and its τ derivatives (∂δ = 1/δ, ∂δδ = −1/δ², ∂δτ = 0 follow from the ln δ term). */
interface IdealDerivatives {
  a: number;
  t: number;
  tt: number;
}

export const newDerivatives = (): Derivatives => ({ a: 0, d: 0, dd: 0, t: 0, tt: 0, dt: 0 });
const newIdealDerivatives = (): IdealDerivatives => ({ a: 0, t: 0, tt: 0 });

/**
 * αʳ and its derivatives at (δ, τ), written into `out` (the solvers pass one they keep, so the hot
 * loop allocates nothing) and returned.
 */
export function residual(terms: ResidualTerms, delta: number, tau: number, out = newDerivatives()): Derivatives {
  let a = 0;
  let ad = 0;
  let add = 0;
  let at = 0;
  let att = 0;
  let adt = 0;
  const lnDelta = Math.log(delta);
  const lnTau = Math.log(tau);
  const iDelta = 1 / delta;
  const iTau = 1 / tau;

  // f = n·exp(u), u = d·ln δ + t·ln τ − c·δ^l − ω·τ^m: u_δ, u_δδ, u_τ, u_ττ; u_δτ = 0.
  const e = terms.exponential;
  for (let i = 0; i < e.n.length; i++) {
    const d = e.d[i];
    const t = e.t[i];
    const l = e.l[i];
    const m = e.m[i];
    const cdl = l > 0 && e.c[i] !== 0 ? e.c[i] * Math.exp(l * lnDelta) : 0;
    const wtm = m !== 0 && e.omega[i] !== 0 ? e.omega[i] * Math.exp(m * lnTau) : 0;
    const f = e.n[i] * Math.exp(d * lnDelta + t * lnTau - cdl - wtm);
    const gd = (d - l * cdl) * iDelta;
    const gdd = (-d - l * (l - 1) * cdl) * iDelta * iDelta;
    const ht = (t - m * wtm) * iTau;
    const htt = (-t - m * (m - 1) * wtm) * iTau * iTau;
    a += f;
    ad += f * gd;
    add += f * (gd * gd + gdd);
    at += f * ht;
    att += f * (ht * ht + htt);
    adt += f * gd * ht;
  }

  const g = terms.gaussian;
  for (let i = 0; i < g.n.length; i++) {
    const d = g.d[i];
    const t = g.t[i];
    const dd = delta - g.epsilon[i];
    const tt = tau - g.gamma[i];
    const f = g.n[i] * Math.exp(d * lnDelta + t * lnTau - g.eta[i] * dd * dd - g.beta[i] * tt * tt);
    const kd = d * iDelta - 2 * g.eta[i] * dd;
    const kt = t * iTau - 2 * g.beta[i] * tt;
    a += f;
    ad += f * kd;
    add += f * (kd * kd - d * iDelta * iDelta - 2 * g.eta[i]);
    at += f * kt;
    att += f * (kt * kt - t * iTau * iTau - 2 * g.beta[i]);
    adt += f * kd * kt;
  }

  const gb = terms.gaoB;
  for (let i = 0; i < gb.n.length; i++) {
    const d = gb.d[i];
    const t = gb.t[i];
    const dd = delta - gb.epsilon[i];
    const tt = tau - gb.gamma[i];
    const beta = gb.beta[i];
    const q = 1 / (beta * tt * tt + gb.b[i]); // h(τ) ⊃ q, q′ = −2β(τ−γ)q², q″ = (8β²(τ−γ)²q − 2β)q²
    const f = gb.n[i] * Math.exp(d * lnDelta + t * lnTau + gb.eta[i] * dd * dd + q);
    const kd = d * iDelta + 2 * gb.eta[i] * dd;
    const kt = t * iTau - 2 * beta * tt * q * q;
    a += f;
    ad += f * kd;
    add += f * (kd * kd - d * iDelta * iDelta + 2 * gb.eta[i]);
    at += f * kt;
    att += f * (kt * kt - t * iTau * iTau + (8 * beta * beta * tt * tt * q - 2 * beta) * q * q);
    adt += f * kd * kt;
  }

  const na = terms.nonAnalytic;
  if (na.n.length > 0) {
    // The terms are singular exactly at δ = 1 (their derivatives have δ − 1 in denominators) but finite in the limit.
    const dm1 = delta === 1 ? 1e-12 : delta - 1;
    const dm1sq = dm1 * dm1;
    const tm1 = tau - 1;
    for (let i = 0; i < na.n.length; i++) {
      const A = na.A[i];
      const B = na.B[i];
      const C = na.C[i];
      const D = na.D[i];
      const aa = na.a[i];
      const b = na.b[i];
      const beta = na.beta[i];
      const theta = 1 - tau + A * dm1sq ** (1 / (2 * beta));
      const Delta = theta * theta + B * dm1sq ** aa;
      const psi = Math.exp(-C * dm1sq - D * tm1 * tm1);
      const dPsi_d = -2 * C * dm1 * psi;
      const dPsi_dd = (2 * C * dm1sq - 1) * 2 * C * psi;
      const dPsi_t = -2 * D * tm1 * psi;
      const dPsi_tt = (2 * D * tm1 * tm1 - 1) * 2 * D * psi;
      const dPsi_dt = 4 * C * D * dm1 * tm1 * psi;
      const dDelta_d =
        dm1 * (((A * theta * 2) / beta) * dm1sq ** (1 / (2 * beta) - 1) + 2 * B * aa * dm1sq ** (aa - 1));
      const dDelta_dd =
        dDelta_d / dm1 +
        dm1sq *
          (4 * B * aa * (aa - 1) * dm1sq ** (aa - 2) +
            2 * (A / beta) ** 2 * (dm1sq ** (1 / (2 * beta) - 1)) ** 2 +
            ((A * theta * 4) / beta) * (1 / (2 * beta) - 1) * dm1sq ** (1 / (2 * beta) - 2));
      const Db = Delta ** b;
      const Db1 = Delta ** (b - 1);
      const Db2 = Delta ** (b - 2);
      const dDb_d = b * Db1 * dDelta_d;
      const dDb_dd = b * (Db1 * dDelta_dd + (b - 1) * Db2 * dDelta_d * dDelta_d);
      const dDb_t = -2 * theta * b * Db1;
      const dDb_tt = 2 * b * Db1 + 4 * theta * theta * b * (b - 1) * Db2;
      const dDb_dt =
        ((-A * b * 2) / beta) * Db1 * dm1 * dm1sq ** (1 / (2 * beta) - 1) - 2 * theta * b * (b - 1) * Db2 * dDelta_d;
      const n = na.n[i];
      a += n * Db * delta * psi;
      ad += n * (Db * (psi + delta * dPsi_d) + dDb_d * delta * psi);
      add += n * (Db * (2 * dPsi_d + delta * dPsi_dd) + 2 * dDb_d * (psi + delta * dPsi_d) + dDb_dd * delta * psi);
      at += n * delta * (dDb_t * psi + Db * dPsi_t);
      att += n * delta * (dDb_tt * psi + 2 * dDb_t * dPsi_t + Db * dPsi_tt);
      adt +=
        n *
        (Db * (dPsi_t + delta * dPsi_dt) +
          delta * dDb_d * dPsi_t +
          dDb_t * (psi + delta * dPsi_d) +
          dDb_dt * delta * psi);
    }
  }
  out.a = a;
  out.d = ad;
  out.dd = add;
  out.t = at;
  out.tt = att;
  out.dt = adt;
  return out;
}

/** α⁰ and its τ derivatives at (δ, τ), written into `out` and returned. */
export function ideal(terms: IdealTerms, delta: number, tau: number, out = newIdealDerivatives()): IdealDerivatives {
  const lnTau = Math.log(tau);
  let a = Math.log(delta) + terms.a1 + terms.a2 * tau + terms.logTau * lnTau;
  let at = terms.a2 + terms.logTau / tau;
  let att = -terms.logTau / (tau * tau);
  const p = terms.power;
  for (let i = 0; i < p.n.length; i++) {
    const f = p.n[i] * Math.exp(p.t[i] * lnTau);
    a += f;
    at += (f * p.t[i]) / tau;
    att += (f * p.t[i] * (p.t[i] - 1)) / (tau * tau);
  }
  const pe = terms.planckEinstein;
  for (let i = 0; i < pe.n.length; i++) {
    const x = Math.exp(-pe.t[i] * tau);
    a += pe.n[i] * Math.log(1 - x);
    at += (pe.n[i] * pe.t[i] * x) / (1 - x);
    att -= (pe.n[i] * pe.t[i] * pe.t[i] * x) / ((1 - x) * (1 - x));
  }
  const g = terms.generalized;
  for (let i = 0; i < g.n.length; i++) {
    const e = g.d[i] * Math.exp(g.t[i] * tau);
    const s = g.c[i] + e;
    a += g.n[i] * Math.log(s);
    at += (g.n[i] * g.t[i] * e) / s;
    att += (g.n[i] * g.t[i] * g.t[i] * e * g.c[i]) / (s * s);
  }
  const cp = terms.cp0;
  for (let i = 0; i < cp.c.length; i++) {
    const c = cp.c[i];
    const t = cp.t[i];
    const tc = cp.tc[i];
    const tau0 = tc / cp.t0[i];
    let i1: number;
    let i2: number;
    if (t === 0) {
      i1 = c * (1 / tau0 - 1 / tau);
      i2 = c * Math.log(tau / tau0);
    } else if (t === -1) {
      i1 = (c / tc) * Math.log(tau / tau0);
      i2 = (c / tc) * (tau - tau0);
    } else {
      const k = c * tc ** t;
      i1 = (k * (tau0 ** (-t - 1) - tau ** (-t - 1))) / (t + 1);
      i2 = (k * (tau0 ** -t - tau ** -t)) / t;
    }
    a += -tau * i1 + i2;
    at -= i1;
    att -= (c * (tc / tau) ** t) / (tau * tau);
  }
  out.a = a;
  out.t = at;
  out.tt = att;
  return out;
}
