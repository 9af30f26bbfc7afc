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
 * Thermodynamic and Transport Properties of Individual Species", NASA TM-4513 (1993), as distributed in
 * Cantera's data/nasa_gas.yaml (the file names TM-4513 as its source), shipped verbatim in
 * data/third-party/nasa/ and read once, on first use. Which species is which catalogue compound is the
 * project's decision, committed in data/nasa-species.json with the reason for each match. The
 * coefficients are dimensionless, so R here is CODATA 2018's; the tables used R = 8.314510, a 2·10⁻⁷
 * difference.
 *
 * Worked example (nasa7.test.ts): N2, species "N2" (TPIS78), 200–1000 K coefficients a1 = 3.53100528,
 * a2 = −1.23660987e-4, a3 = −5.02999437e-7, a4 = 2.43530612e-9, a5 = −1.40881235e-12, a6 = −1046.97628,
 * a7 = 2.96747468: Cp°(298.15 K) = 29.124 J/(mol·K), H°(500 K) − H°(298.15 K) = 5.915 kJ/mol and
 * S°(500 K) − S°(298.15 K) = 15.139 J/(mol·K) (NIST-JANAF: 29.124, 5.911 kJ/mol, 15.130).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { R } from './constants.ts';
import nasaSpecies from './data/nasa-species.json' with { type: 'json' };
import sources from './data/sources.json' with { type: 'json' };
import { deepFreeze, isRecord } from './json-checks.ts';
import { cachedParse } from './parsed-data-cache.ts';
import { layerDir } from './third-party-data.ts';

/** Cantera's file of the NASA species, in the data folder as published. */
export const NASA7_FILE_NAME = 'nasa_gas.yaml';

/** Catalogue CAS → the NASA species matched to it, with why (data/nasa-species.json). */
interface NasaSpeciesMapping {
  source: string;
  species: Record<string, { compound: string; species: string; why: string }>;
}

export const NASA_SPECIES_MAPPING: NasaSpeciesMapping = nasaSpecies;

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

/** The layer's folder (data/third-party/nasa, or CHEM_DATA_DIR's). */
export function nasaDataDir(): string {
  return layerDir('nasa');
}

let loaded: { dir: string; byCas: ReadonlyMap<string, Nasa7Polynomial> } | undefined;

function fits(): ReadonlyMap<string, Nasa7Polynomial> {
  const dir = nasaDataDir();
  if (loaded?.dir !== dir) {
    const file = join(/* turbopackIgnore: true */ dir, NASA7_FILE_NAME);
    const byCas = existsSync(/* turbopackIgnore: true */ file)
      ? readNasa7(
          cachedParse('nasa', [file], () =>
            nasaSpeciesOfCanteraYaml(readFileSync(/* turbopackIgnore: true */ file, 'utf8')),
          ),
          NASA_SPECIES_MAPPING,
          sources,
        )
      : new Map<string, Nasa7Polynomial>();
    loaded = { dir, byCas };
  }
  return loaded.byCas;
}

/** The NASA-7 fit for a compound (by CAS number), if one is matched to it. */
export function nasaPolynomialFor(cas: string): Nasa7Polynomial | undefined {
  return fits().get(cas);
}

/** Every NASA-7 fit on hand, in the mapping's order. */
export function allNasaPolynomials(): readonly Nasa7Polynomial[] {
  return [...fits().values()];
}

/**
 * Cantera's YAML (species: [{name, composition, thermo: {model: NASA7, temperature-ranges: [T0, T1, …],
 * data: [[a1…a7], …], note}}]) as species name → {composition, ranges: [{min, max, coefficients}], note},
 * the shape readNasa7 checks.
 * Species of another thermo model are left out.
 */
export function nasaSpeciesOfCanteraYaml(text: string): Record<string, unknown> {
  const file = parseYaml(text) as { species?: unknown };
  if (!Array.isArray(file?.species)) throw new Error(`${NASA7_FILE_NAME}: no species list`);
  const out: Record<string, unknown> = {};
  for (const species of file.species as unknown[]) {
    if (!isRecord(species) || typeof species.name !== 'string' || !isRecord(species.thermo)) continue;
    const thermo = species.thermo;
    if (thermo.model !== 'NASA7') continue;
    const bounds = thermo['temperature-ranges'];
    const data = thermo.data;
    if (!Array.isArray(bounds) || !Array.isArray(data)) continue;
    out[species.name] = {
      composition: species.composition,
      ranges: data.map((coefficients: unknown, i) => ({ min: bounds[i], max: bounds[i + 1], coefficients })),
      note: thermo.note ?? '',
    };
  }
  return out;
}

/**
 * The fits of the mapped species, by CAS number. Checks the shape of each (a bad file fails on first use,
 * loudly) and that every mapped species is in the file.
 */
export function readNasa7(
  data: unknown,
  mapping: NasaSpeciesMapping,
  sourceTable: Record<string, string>,
): ReadonlyMap<string, Nasa7Polynomial> {
  if (!isRecord(data)) throw new Error(`${NASA7_FILE_NAME}: expected an object keyed by species name`);
  const citation = sourceTable[mapping.source];
  if (citation === undefined)
    throw new Error(
      `nasa-species.json: unknown source ${JSON.stringify(mapping.source)} (add it to data/sources.json)`,
    );
  const map = new Map<string, Nasa7Polynomial>();
  for (const [cas, { species }] of Object.entries(mapping.species)) {
    const fail = (message: string): never => {
      throw new Error(`${NASA7_FILE_NAME} ${species} (matched to ${cas}): ${message}`);
    };
    const entry = data[species];
    if (!isRecord(entry)) return fail('not in the file');
    const { ranges, note } = entry;
    if (typeof note !== 'string') fail('"note" must be a string');
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
    map.set(cas, deepFreeze({ species, cas, ranges: read, note: (note as string).trim(), source: citation }));
  }
  return map;
}
