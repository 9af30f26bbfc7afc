/**
 * The reduced Helmholtz energy of a multiparameter equation of state, α(δ, τ) = α⁰(δ, τ) + αʳ(δ, τ),
 * δ = ρ/ρr, τ = Tr/T, and the derivatives the thermodynamic properties need. One evaluator for every
 * fluid: the terms are read from the coefficient files (./fluid-file.ts) in CoolProp's term types.
 *
 * Residual terms:
 *   power        n·δ^d·τ^t·exp(−δ^l)            (l = 0: no exponential)
 *   exponential  n·δ^d·τ^t·exp(−g·δ^l)
 *   gaussian     n·δ^d·τ^t·exp(−η(δ − ε)² − β(τ − γ)²)
 *   nonAnalytic  n·Δ^b·δ·ψ,  Δ = θ² + B·[(δ−1)²]^a,  θ = (1 − τ) + A·[(δ−1)²]^(1/(2β)),
 *                ψ = exp(−C(δ−1)² − D(τ−1)²)      (the critical-region terms of IAPWS-95 and Span–Wagner)
 * Ideal part: ln δ + a1 + a2·τ (lead, and enthalpy–entropy offsets), a·ln τ, Σ n·τ^t,
 *   Σ n·ln(1 − exp(−t·τ)) (Planck–Einstein), Σ n·ln(c + d·exp(t·τ)) (generalized).
 * Sources: W. Wagner, A. Pruß, J. Phys. Chem. Ref. Data 31 (2002) 387 (the forms and, Table 6.5 there /
 * IAPWS R6-95(2018) Table 5, the derivatives of the non-analytic terms); E. W. Lemmon, R. Span,
 * J. Chem. Eng. Data 51 (2006) 785; I. H. Bell et al., Ind. Eng. Chem. Res. 53 (2014) 2498 (CoolProp's
 * term types). The derivatives of the other terms are elementary.
 */

export interface ResidualTerms {
  power: { n: number[]; d: number[]; t: number[]; c: number[]; l: number[] };
  gaussian: {
    n: number[];
    d: number[];
    t: number[];
    eta: number[];
    epsilon: number[];
    beta: number[];
    gamma: number[];
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
}

/** αʳ and its derivatives at (δ, τ): value, ∂δ, ∂δδ, ∂τ, ∂ττ, ∂δτ (plain partial derivatives). */
export interface Derivatives {
  a: number;
  d: number;
  dd: number;
  t: number;
  tt: number;
  dt: number;
}

export function residual(terms: ResidualTerms, delta: number, tau: number): Derivatives {
  let a = 0;
  let ad = 0;
  let add = 0;
  let at = 0;
  let att = 0;
  let adt = 0;
  const lnDelta = Math.log(delta);
  const lnTau = Math.log(tau);

  const p = terms.power;
  for (let i = 0; i < p.n.length; i++) {
    const { d, t, l } = { d: p.d[i], t: p.t[i], l: p.l[i] };
    const cdl = l === 0 ? 0 : p.c[i] * delta ** l;
    const f = p.n[i] * Math.exp(d * lnDelta + t * lnTau - cdl);
    const k = d - l * cdl; // δ·∂ln f/∂δ
    a += f;
    ad += (f * k) / delta;
    add += (f * (k * (k - 1) - l * l * cdl)) / (delta * delta);
    at += (f * t) / tau;
    att += (f * t * (t - 1)) / (tau * tau);
    adt += (f * t * k) / (delta * tau);
  }

  const g = terms.gaussian;
  for (let i = 0; i < g.n.length; i++) {
    const dd = delta - g.epsilon[i];
    const tt = tau - g.gamma[i];
    const f = g.n[i] * Math.exp(g.d[i] * lnDelta + g.t[i] * lnTau - g.eta[i] * dd * dd - g.beta[i] * tt * tt);
    const kd = g.d[i] / delta - 2 * g.eta[i] * dd;
    const kt = g.t[i] / tau - 2 * g.beta[i] * tt;
    a += f;
    ad += f * kd;
    add += f * (kd * kd - g.d[i] / (delta * delta) - 2 * g.eta[i]);
    at += f * kt;
    att += f * (kt * kt - g.t[i] / (tau * tau) - 2 * g.beta[i]);
    adt += f * kd * kt;
  }

  const na = terms.nonAnalytic;
  if (na.n.length > 0) {
    // The terms are singular exactly at δ = 1 (their derivatives have δ − 1 in denominators) but finite in the limit.
    const dm1 = delta === 1 ? 1e-12 : delta - 1;
    const dm1sq = dm1 * dm1;
    for (let i = 0; i < na.n.length; i++) {
      const { A, B, C, D } = { A: na.A[i], B: na.B[i], C: na.C[i], D: na.D[i] };
      const aa = na.a[i];
      const b = na.b[i];
      const beta = na.beta[i];
      const theta = 1 - tau + A * dm1sq ** (1 / (2 * beta));
      const Delta = theta * theta + B * dm1sq ** aa;
      const psi = Math.exp(-C * dm1sq - D * (tau - 1) ** 2);
      const dPsi_d = -2 * C * dm1 * psi;
      const dPsi_dd = (2 * C * dm1sq - 1) * 2 * C * psi;
      const dPsi_t = -2 * D * (tau - 1) * psi;
      const dPsi_tt = (2 * D * (tau - 1) ** 2 - 1) * 2 * D * psi;
      const dPsi_dt = 4 * C * D * dm1 * (tau - 1) * psi;
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
  return { a, d: ad, dd: add, t: at, tt: att, dt: adt };
}

/** α⁰ and its τ derivatives at (δ, τ) (∂δ = 1/δ, ∂δδ = −1/δ², ∂δτ = 0 follow from the ln δ term). */
export function ideal(terms: IdealTerms, delta: number, tau: number): { a: number; t: number; tt: number } {
  let a = Math.log(delta) + terms.a1 + terms.a2 * tau + terms.logTau * Math.log(tau);
  let at = terms.a2 + terms.logTau / tau;
  let att = -terms.logTau / (tau * tau);
  const p = terms.power;
  for (let i = 0; i < p.n.length; i++) {
    a += p.n[i] * tau ** p.t[i];
    at += p.n[i] * p.t[i] * tau ** (p.t[i] - 1);
    att += p.n[i] * p.t[i] * (p.t[i] - 1) * tau ** (p.t[i] - 2);
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
  return { a, t: at, tt: att };
}
