/**
 * A reference fluid read from a CoolProp fluid file (dev/fluids/<Fluid>.json, MIT; the coefficients are
 * those of the paper the file cites): the equation's terms (./terms.ts), its reducing and critical
 * state, limits, and the ancillary equations used only as starting guesses for the solvers.
 * A file with a term type this evaluator does not implement is refused with the type named.
 *
 * A pseudo-pure file (CoolProp's Air: E. W. Lemmon et al., J. Phys. Chem. Ref. Data 29 (2000) 331) is a
 * mixture of fixed composition described by one Helmholtz equation. It has no saturation line: it
 * condenses from its dew point to its bubble point, so the file gives bubble- and dew-point pressure
 * equations in place of a vapour-pressure one, its reducing state is the maxcondentherm (the highest
 * temperature at which liquid and vapour coexist), its "critical" point is where the bubble and dew
 * curves meet, and its "triple" temperature is the solidification point on the bubble-point curve.
 */
import type { IdealTerms, ResidualTerms } from './terms.ts';

export interface Ancillary {
  /** "pV"/"pL": p = r·exp(Σ n·θ^t [·Tr/T]); "rhoLnoexp": ρ = r·(1 + Σ n·θ^t); "rhoV": ρ = r·exp(Σ n·θ^t [·Tr/T]). */
  type: 'pV' | 'pL' | 'rhoLnoexp' | 'rhoV';
  n: number[];
  t: number[];
  reducingValue: number;
  tr: number;
  usingTauR: boolean;
  /** The temperatures (K) it was fitted over: outside them its values can be far off, or absurd. */
  tmin: number;
  tmax: number;
}

export interface ReferenceFluid {
  /** CoolProp's name ("Water", "CarbonDioxide"). */
  name: string;
  cas: string;
  /** kg/mol */
  molarMass: number;
  /** J/(mol·K), the equation's own value of R. */
  gasConstant: number;
  /** Reducing temperature (K) and molar density (mol/m3) of δ and τ. */
  reducing: { temperature: number; density: number };
  critical: { temperature: number; pressure: number; density: number };
  /** K */
  tripleTemperature: number;
  /** Upper limits of the equation's range: K, Pa. */
  maxTemperature: number;
  maxPressure: number;
  residual: ResidualTerms;
  ideal: IdealTerms;
  /** The vapour-pressure equation is absent for a pseudo-pure mixture (see pseudoPure). */
  ancillaries: { pressure?: Ancillary; liquidDensity: Ancillary; vaporDensity: Ancillary };
  /** Only for a pseudo-pure mixture: the saturation solvers refuse it, and densities use these bounds. */
  pseudoPure?: PseudoPureBounds;
  /** The papers: the equation of state, and the ideal-gas heat capacity where cited separately. */
  citation: string;
  idealCitation?: string;
}

/** Where a pseudo-pure mixture is two-phase, as its file gives it. */
export interface PseudoPureBounds {
  /** Bubble-point (liquid side, "pL") and dew-point (vapour side, "pV") pressure equations, Pa. */
  bubblePressure: Ancillary;
  dewPressure: Ancillary;
  /** How far (%) the file says these equations may be off: states this close to them may be two-phase. */
  uncertaintyPercent: number;
  /** The highest temperature (K) and pressure (Pa) at which liquid and vapour coexist. */
  maxcondentherm: { temperature: number; pressure: number };
  maxcondenbar: { temperature: number; pressure: number };
}

type Json = Record<string, unknown>;
const list = (v: unknown) => v as number[];

const num = (v: unknown, what: string, fail: (m: string) => never): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fail(`${what} is not a number`);

function readResidual(terms: Json[], fail: (m: string) => never): ResidualTerms {
  const out: ResidualTerms = {
    exponential: { n: [], d: [], t: [], c: [], l: [], omega: [], m: [] },
    gaussian: { n: [], d: [], t: [], eta: [], epsilon: [], beta: [], gamma: [] },
    gaoB: { n: [], d: [], t: [], eta: [], epsilon: [], beta: [], gamma: [], b: [] },
    nonAnalytic: { n: [], a: [], b: [], beta: [], A: [], B: [], C: [], D: [] },
  };
  const e = out.exponential;
  for (const term of terms) {
    const n = list(term.n);
    const zeros = n.map(() => 0);
    const ones = n.map(() => 1);
    switch (term.type) {
      case 'ResidualHelmholtzPower':
        e.l.push(...list(term.l));
        e.c.push(...list(term.l).map((l) => (l > 0 ? 1 : 0)));
        e.omega.push(...zeros);
        e.m.push(...zeros);
        break;
      case 'ResidualHelmholtzExponential':
        e.l.push(...list(term.l));
        e.c.push(...list(term.g));
        e.omega.push(...zeros);
        e.m.push(...zeros);
        break;
      case 'ResidualHelmholtzLemmon2005':
        e.l.push(...list(term.l));
        e.c.push(...ones);
        e.omega.push(...ones);
        e.m.push(...list(term.m));
        break;
      case 'ResidualHelmholtzDoubleExponential':
        e.l.push(...list(term.ld));
        e.c.push(...list(term.gd));
        e.omega.push(...list(term.gt));
        e.m.push(...list(term.lt));
        break;
      case 'ResidualHelmholtzGaussian':
        for (const key of ['n', 'd', 't', 'eta', 'epsilon', 'beta', 'gamma'] as const)
          out.gaussian[key].push(...list(term[key]));
        continue;
      case 'ResidualHelmholtzGaoB':
        for (const key of ['n', 'd', 't', 'eta', 'epsilon', 'beta', 'gamma', 'b'] as const)
          out.gaoB[key].push(...list(term[key]));
        continue;
      case 'ResidualHelmholtzNonAnalytic':
        for (const key of ['n', 'a', 'b', 'beta', 'A', 'B', 'C', 'D'] as const)
          out.nonAnalytic[key].push(...list(term[key]));
        continue;
      default:
        fail(`residual term type ${String(term.type)} is not implemented`);
    }
    e.n.push(...n);
    e.d.push(...list(term.d));
    e.t.push(...list(term.t));
  }
  return out;
}

function readIdeal(terms: Json[], fail: (m: string) => never): IdealTerms {
  const out: IdealTerms = {
    a1: 0,
    a2: 0,
    logTau: 0,
    power: { n: [], t: [] },
    planckEinstein: { n: [], t: [] },
    generalized: { n: [], t: [], c: [], d: [] },
    cp0: { c: [], t: [], tc: [], t0: [] },
  };
  const addCp0 = (c: number, t: number, term: Json) => {
    out.cp0.c.push(c);
    out.cp0.t.push(t);
    out.cp0.tc.push(num(term.Tc, `${term.type} Tc`, fail));
    out.cp0.t0.push(num(term.T0, `${term.type} T0`, fail));
  };
  const addGeneralized = (n: number, t: number, c: number, d: number) => {
    out.generalized.n.push(n);
    out.generalized.t.push(t);
    out.generalized.c.push(c);
    out.generalized.d.push(d);
  };
  for (const term of terms) {
    switch (term.type) {
      case 'IdealGasHelmholtzLead':
      case 'IdealGasHelmholtzEnthalpyEntropyOffset':
      case 'IdealGasHelmholtzEnthalpyEntropyOffsetCore':
        out.a1 += num(term.a1, `${term.type} a1`, fail);
        out.a2 += num(term.a2, `${term.type} a2`, fail);
        break;
      case 'IdealGasHelmholtzLogTau':
        out.logTau += num(term.a, `${term.type} a`, fail);
        break;
      case 'IdealGasHelmholtzPower':
        out.power.n.push(...list(term.n));
        out.power.t.push(...list(term.t));
        break;
      case 'IdealGasHelmholtzPlanckEinstein':
        out.planckEinstein.n.push(...list(term.n));
        out.planckEinstein.t.push(...list(term.t));
        break;
      case 'IdealGasHelmholtzPlanckEinsteinGeneralized':
        for (const key of ['n', 't', 'c', 'd'] as const) out.generalized[key].push(...list(term[key]));
        break;
      case 'IdealGasHelmholtzPlanckEinsteinFunctionT': {
        // n·ln(1 − exp(−v·τ/Tc)): v is a characteristic temperature (K).
        const tc = num(term.Tcrit, `${term.type} Tcrit`, fail);
        const n = list(term.n);
        for (const [i, v] of list(term.v).entries()) addGeneralized(n[i], -v / tc, 1, -1);
        break;
      }
      case 'IdealGasHelmholtzCP0Constant':
        addCp0(num(term.cp_over_R, `${term.type} cp_over_R`, fail), 0, term);
        break;
      case 'IdealGasHelmholtzCP0PolyT': {
        const t = list(term.t);
        for (const [i, c] of list(term.c).entries()) addCp0(c, t[i], term);
        break;
      }
      case 'IdealGasHelmholtzCP0AlyLee': {
        // cp°/R = A + B·[(C/T)/sinh(C/T)]² + D·[(E/T)/cosh(E/T)]² (Aly & Lee 1981): A as a constant cp°
        // term; the sinh and cosh terms as generalized Planck–Einstein terms n·ln(1 ∓ exp(−2C·τ/Tc)),
        // which differ from B·ln sinh(C/T) and −D·ln cosh(E/T) by terms linear in τ (reference state only).
        const [A, B, C, D, E] = list(term.c);
        const tc = num(term.Tc, `${term.type} Tc`, fail);
        if (A !== 0) addCp0(A, 0, term);
        if (B !== 0) addGeneralized(B, (-2 * C) / tc, 1, -1);
        if (D !== 0) addGeneralized(-D, (-2 * E) / tc, 1, 1);
        break;
      }
      default:
        fail(`ideal-gas term type ${String(term.type)} is not implemented`);
    }
  }
  return out;
}

function readAncillary(raw: Json): Ancillary {
  return {
    type: raw.type as Ancillary['type'],
    n: list(raw.n),
    t: list(raw.t),
    reducingValue: raw.reducing_value as number,
    tr: raw.T_r as number,
    usingTauR: raw.using_tau_r === true,
    tmin: raw.Tmin as number,
    tmax: raw.Tmax as number,
  };
}

/** Reads a fluid file's JSON; `citations` maps the BibTeX keys it cites to references. Throws on what it cannot use. */
export function readFluidFile(json: Json, citations: Record<string, string>): ReferenceFluid {
  const info = json.INFO as Json;
  const fail = (message: string): never => {
    throw new Error(`${String(info?.NAME)}: ${message}`);
  };
  const eos = (json.EOS as Json[])[0];
  const reducing = (eos.STATES as Json).reducing as Json;
  const critical = (json.STATES as Json).critical as Json;
  const ancillaries = json.ANCILLARIES as Json;
  const cite = (key: unknown) =>
    String(key ?? '')
      .split(/[,;]\s*/)
      .filter(Boolean)
      .map((k) => citations[k] ?? fail(`no reference for BibTeX key ${k}`))
      .join('; ');
  const idealCitation = eos.BibTeX_CP0 ? cite(eos.BibTeX_CP0) : '';
  return {
    name: info.NAME as string,
    cas: info.CAS as string,
    molarMass: eos.molar_mass as number,
    gasConstant: eos.gas_constant as number,
    reducing: { temperature: reducing.T as number, density: reducing.rhomolar as number },
    critical: {
      temperature: critical.T as number,
      pressure: critical.p as number,
      density: critical.rhomolar as number,
    },
    tripleTemperature: eos.Ttriple as number,
    maxTemperature: eos.T_max as number,
    maxPressure: eos.p_max as number,
    residual: readResidual(eos.alphar as Json[], fail),
    ideal: readIdeal(eos.alpha0 as Json[], fail),
    ancillaries: {
      ...(eos.pseudo_pure ? {} : { pressure: readAncillary(ancillaries.pS as Json) }),
      liquidDensity: readAncillary(ancillaries.rhoL as Json),
      vaporDensity: readAncillary(ancillaries.rhoV as Json),
    },
    ...(eos.pseudo_pure ? { pseudoPure: readPseudoPure(eos, ancillaries, fail) } : {}),
    citation: cite(eos.BibTeX_EOS),
    ...(idealCitation ? { idealCitation } : {}),
  };
}

function readPseudoPure(eos: Json, ancillaries: Json, fail: (m: string) => never): PseudoPureBounds {
  const states = eos.STATES as Json;
  const point = (key: string) => {
    const state = states?.[key] as Json | undefined;
    return {
      temperature: num(state?.T, `EOS state ${key} T`, fail),
      pressure: num(state?.p, `EOS state ${key} p`, fail),
    };
  };
  const [bubble, dew] = [ancillaries.pL as Json | undefined, ancillaries.pV as Json | undefined];
  if (!bubble || !dew) fail('a pseudo-pure file without bubble- and dew-point pressure equations (pL, pV)');
  return {
    bubblePressure: readAncillary(bubble as Json),
    dewPressure: readAncillary(dew as Json),
    uncertaintyPercent: Math.max(
      num((bubble as Json).max_abserror_percentage, 'pL max_abserror_percentage', fail),
      num((dew as Json).max_abserror_percentage, 'pV max_abserror_percentage', fail),
    ),
    maxcondentherm: point('temperature_max_sat'),
    maxcondenbar: point('pressure_max_sat'),
  };
}

/**
 * An ancillary equation's value at T (K): a starting guess, usually good to a few tenths of a percent
 * within its fitted range (some files' ancillaries are off by more near the triple point).
 */
export function ancillaryValue(a: Ancillary, t: number): number {
  const theta = 1 - t / a.tr;
  let sum = 0;
  for (let i = 0; i < a.n.length; i++) sum += a.n[i] * theta ** a.t[i];
  if (a.usingTauR) sum *= a.tr / t;
  return a.type === 'rhoLnoexp' ? a.reducingValue * (1 + sum) : a.reducingValue * Math.exp(sum);
}
