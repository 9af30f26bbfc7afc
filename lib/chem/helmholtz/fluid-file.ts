/**
 * A reference fluid read from a CoolProp fluid file (dev/fluids/<Fluid>.json, MIT; the coefficients are
 * those of the paper the file cites): the equation's terms (./terms.ts), its reducing and critical
 * state, limits, and the ancillary equations used only as starting guesses for the solvers.
 * A file with a term type this evaluator does not implement is refused with the type named.
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
  ancillaries: { pressure: Ancillary; liquidDensity: Ancillary; vaporDensity: Ancillary };
  /** The papers: the equation of state, and the ideal-gas heat capacity where cited separately. */
  citation: string;
  idealCitation?: string;
}

type Json = Record<string, unknown>;
const list = (v: unknown) => v as number[];

function readResidual(terms: Json[], fail: (m: string) => never): ResidualTerms {
  const out: ResidualTerms = {
    power: { n: [], d: [], t: [], c: [], l: [] },
    gaussian: { n: [], d: [], t: [], eta: [], epsilon: [], beta: [], gamma: [] },
    nonAnalytic: { n: [], a: [], b: [], beta: [], A: [], B: [], C: [], D: [] },
  };
  for (const term of terms) {
    if (term.type === 'ResidualHelmholtzPower' || term.type === 'ResidualHelmholtzExponential') {
      const n = list(term.n);
      const l = list(term.l);
      out.power.n.push(...n);
      out.power.d.push(...list(term.d));
      out.power.t.push(...list(term.t));
      out.power.l.push(...l);
      out.power.c.push(...(term.type === 'ResidualHelmholtzExponential' ? list(term.g) : l.map(() => 1)));
    } else if (term.type === 'ResidualHelmholtzGaussian') {
      for (const key of ['n', 'd', 't', 'eta', 'epsilon', 'beta', 'gamma'] as const)
        out.gaussian[key].push(...list(term[key]));
    } else if (term.type === 'ResidualHelmholtzNonAnalytic') {
      for (const key of ['n', 'a', 'b', 'beta', 'A', 'B', 'C', 'D'] as const)
        out.nonAnalytic[key].push(...list(term[key]));
    } else {
      fail(`residual term type ${String(term.type)} is not implemented`);
    }
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
  };
  for (const term of terms) {
    switch (term.type) {
      case 'IdealGasHelmholtzLead':
      case 'IdealGasHelmholtzEnthalpyEntropyOffset':
      case 'IdealGasHelmholtzEnthalpyEntropyOffsetCore':
        out.a1 += term.a1 as number;
        out.a2 += term.a2 as number;
        break;
      case 'IdealGasHelmholtzLogTau':
        out.logTau += term.a as number;
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
  };
}

/** Reads a fluid file's JSON; `citations` maps the BibTeX keys it cites to references. Throws on what it cannot use. */
export function readFluidFile(json: Json, citations: Record<string, string>): ReferenceFluid {
  const info = json.INFO as Json;
  const fail = (message: string): never => {
    throw new Error(`${String(info?.NAME)}: ${message}`);
  };
  const eos = (json.EOS as Json[])[0];
  if (eos.pseudo_pure) fail('a pseudo-pure mixture, not a pure fluid');
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
      pressure: readAncillary(ancillaries.pS as Json),
      liquidDensity: readAncillary(ancillaries.rhoL as Json),
      vaporDensity: readAncillary(ancillaries.rhoV as Json),
    },
    citation: cite(eos.BibTeX_EOS),
    ...(idealCitation ? { idealCitation } : {}),
  };
}

/** An ancillary equation's value at T (K): a starting guess, good to a few tenths of a percent. */
export function ancillaryValue(a: Ancillary, t: number): number {
  const theta = 1 - t / a.tr;
  let sum = 0;
  for (let i = 0; i < a.n.length; i++) sum += a.n[i] * theta ** a.t[i];
  if (a.usingTauR) sum *= a.tr / t;
  return a.type === 'rhoLnoexp' ? a.reducingValue * (1 + sum) : a.reducingValue * Math.exp(sum);
}
