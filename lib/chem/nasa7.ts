/**
 * NASA 7-coefficient polynomials for the ideal-gas standard-state heat capacity, enthalpy and
 * entropy of a species, one set of seven coefficients a1…a7 per temperature range (usually
 * Tmin–1000 K and 1000 K–Tmax). Pure functions in SI: T in K, Cp° and S° in J/(mol·K), H° in J/mol.
 *
 *   Cp°/R    = a1 + a2·T + a3·T² + a4·T³ + a5·T⁴
 *   H°/(R·T) = a1 + a2·T/2 + a3·T²/3 + a4·T³/4 + a5·T⁴/5 + a6/T
 *   S°/R     = a1·ln T + a2·T + a3·T²/2 + a4·T³/3 + a5·T⁴/4 + a7
 *
 * H° and S° are the exact integrals of Cp° (dT and dT/T), a6 and a7 their integration constants: H° is
 * on the NASA scale H°(T) = ΔfH°(298.15 K) + [H°(T) − H°(298.15 K)], S° is the absolute entropy at
 * the tables' standard-state pressure. Differences between two temperatures need neither convention.
 * Form and coefficients: B. J. McBride, S. Gordon, M. A. Reno, "Coefficients for Calculating
 * Thermodynamic and Transport Properties of Individual Species", NASA TM-4513 (1993), as distributed
 * in Cantera's data/nasa_gas.yaml, converted to nasa7.json and kept in the steering folder
 * ../shared/data/nasa/ beside the checkout (fetched data may live only there; its README says how it
 * was made). Read once, on first use; where the folder is absent no compound has a NASA-7 fit. The coefficients are
 * dimensionless, so R here is CODATA 2018's; the tables used R = 8.314510, a 2·10⁻⁷ difference.
 *
 * Worked example (nasa7.test.ts): N2, species "N2" (TPIS78), 200–1000 K coefficients a1 = 3.53100528,
 * a2 = −1.23660987e-4, a3 = −5.02999437e-7, a4 = 2.43530612e-9, a5 = −1.40881235e-12, a6 = −1046.97628,
 * a7 = 2.96747468: Cp°(298.15 K) = 29.124 J/(mol·K), H°(500 K) − H°(298.15 K) = 5.915 kJ/mol and
 * S°(500 K) − S°(298.15 K) = 15.139 J/(mol·K) (NIST-JANAF: 29.124, 5.911 kJ/mol, 15.130).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../project-root.ts';
import { R } from './constants.ts';
import sources from './data/sources.json' with { type: 'json' };
import { deepFreeze, isRecord } from './json-checks.ts';

export const NASA7_FILE = join(PROJECT_ROOT, '../shared/data/nasa/nasa7.json');

/** One temperature range of a NASA-7 fit: coefficients a1…a7 hold from min to max (K). */
export interface Nasa7Range {
  min: number;
  max: number;
  coefficients: readonly number[];
}

/** A species' NASA-7 fit: ranges in ascending order, adjoining at their common bound (Tmid). */
export interface Nasa7Polynomial {
  /** The species name in the NASA file, e.g. "CO2" or "C4H10,n-butane". */
  species: string;
  /** The CAS number of the catalogue compound it was matched to. */
  cas: string;
  ranges: readonly Nasa7Range[];
  /** The NASA file's reference code and date for the data behind the fit, e.g. "L 7/88". */
  note: string;
  /** Full citation of the coefficients. */
  source: string;
}

export const NASA7_EQUATIONS =
  'NASA 7-coefficient polynomials: Cp°/R = a1 + a2·T + a3·T² + a4·T³ + a5·T⁴, H°/(RT) = a1 + a2·T/2 + a3·T²/3 + a4·T³/4 + a5·T⁴/5 + a6/T, S°/R = a1·ln T + a2·T + a3·T²/2 + a4·T³/3 + a5·T⁴/4 + a7 (T in K)';

/** The range whose coefficients apply at t: the lowest range reaching t (at Tmid, the lower one); beyond the ends, the end range. */
export function nasa7RangeAt(polynomial: Nasa7Polynomial, t: number): Nasa7Range {
  const { ranges } = polynomial;
  return ranges.find((range) => t <= range.max) ?? ranges[ranges.length - 1];
}

/** Cp° (J/(mol·K)) at t (K). */
export function nasa7HeatCapacity(polynomial: Nasa7Polynomial, t: number): number {
  const [a1, a2, a3, a4, a5] = nasa7RangeAt(polynomial, t).coefficients;
  return R * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5))));
}

/** H° (J/mol) at t (K), on the NASA scale (ΔfH° at 298.15 K plus the sensible enthalpy from there). */
export function nasa7Enthalpy(polynomial: Nasa7Polynomial, t: number): number {
  const [a1, a2, a3, a4, a5, a6] = nasa7RangeAt(polynomial, t).coefficients;
  return R * (t * (a1 + t * (a2 / 2 + t * (a3 / 3 + t * (a4 / 4 + (t * a5) / 5)))) + a6);
}

/** S° (J/(mol·K)) at t (K), at the tables' standard-state pressure. */
export function nasa7Entropy(polynomial: Nasa7Polynomial, t: number): number {
  const [a1, a2, a3, a4, a5, , a7] = nasa7RangeAt(polynomial, t).coefficients;
  return R * (a1 * Math.log(t) + t * (a2 + t * (a3 / 2 + t * (a4 / 3 + (t * a5) / 4))) + a7);
}

let byCas: ReadonlyMap<string, Nasa7Polynomial> | undefined;

function loaded(): ReadonlyMap<string, Nasa7Polynomial> {
  byCas ??= existsSync(/* turbopackIgnore: true */ NASA7_FILE)
    ? readNasa7(JSON.parse(readFileSync(/* turbopackIgnore: true */ NASA7_FILE, 'utf8')), sources)
    : new Map();
  return byCas;
}

/** The NASA-7 fit for a compound (by CAS number), if the NASA file has one for it. */
export function nasaPolynomialFor(cas: string): Nasa7Polynomial | undefined {
  return loaded().get(cas);
}

/** Every NASA-7 fit on hand, in file order. */
export function allNasaPolynomials(): readonly Nasa7Polynomial[] {
  return [...loaded().values()];
}

/** Checks the data file's shape (a bad file fails on first use, loudly) and resolves each source id to its citation. */
export function readNasa7(data: unknown, sourceTable: Record<string, string>): ReadonlyMap<string, Nasa7Polynomial> {
  if (!isRecord(data)) throw new Error('nasa7.json: expected an object keyed by CAS number');
  const map = new Map<string, Nasa7Polynomial>();
  for (const [key, entry] of Object.entries(data)) {
    const fail = (message: string): never => {
      throw new Error(`nasa7.json ${key}: ${message}`);
    };
    if (!isRecord(entry)) fail('not an object');
    const { species, cas, ranges, note, source } = entry as Record<string, unknown>;
    if (cas !== key) fail(`"cas" ${JSON.stringify(cas)} differs from its key`);
    if (typeof species !== 'string' || typeof note !== 'string') fail('"species" and "note" must be strings');
    const citation = typeof source === 'string' ? sourceTable[source] : undefined;
    if (citation === undefined) fail(`unknown source ${JSON.stringify(source)} (add it to data/sources.json)`);
    if (!Array.isArray(ranges) || ranges.length === 0) fail('"ranges" must be a non-empty array');
    const read = (ranges as unknown[]).map((range, i): Nasa7Range => {
      if (!isRecord(range)) return fail(`ranges[${i}] is not an object`);
      const { min, max, coefficients } = range;
      const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
      if (!finite(min) || !finite(max) || (min as number) >= (max as number)) fail(`ranges[${i}]: need min < max`);
      if (!Array.isArray(coefficients) || coefficients.length !== 7 || !coefficients.every(finite))
        fail(`ranges[${i}]: need seven finite coefficients a1…a7`);
      return { min: min as number, max: max as number, coefficients: coefficients as number[] };
    });
    read.forEach((range, i) => {
      if (i > 0 && range.min !== read[i - 1].max) fail(`ranges[${i}] does not start where ranges[${i - 1}] ends`);
    });
    map.set(
      key,
      deepFreeze({
        species: species as string,
        cas: key,
        ranges: read,
        note: note as string,
        source: citation as string,
      }),
    );
  }
  return map;
}
