/**
 * Named mixtures (air, natural gases, R-400/R-500 refrigerant blends…) and their compositions, as
 * tabulated in the `chemicals` library's `Mixtures Compositions.tsv` (MIT; each row names its source,
 * the REFPROP manual or ASHRAE 34), shipped verbatim in data/third-party/pubchem-names/. A compound
 * lookup that meets one of these names, or one of the few names of fuels of variable composition below,
 * is refused as a mixture (mixtureError) with the composition where the table has one, so that an agent
 * can pass the components to service_mixture_properties. Read once, on first use.
 *
 * The file's columns: name, source, N, then N CAS numbers, N names, N mass fractions, N mole fractions,
 * then synonyms.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCompound, normalizeKey } from './lookup.ts';
import { layerDir } from './third-party-data.ts';
import { ToolError } from './tool.ts';

const MIXTURES_FILE = 'Mixtures Compositions.tsv';

export interface MixtureComponent {
  cas: string;
  name: string;
  moleFraction: number;
}

export interface NamedMixture {
  name: string;
  synonyms: readonly string[];
  components: readonly MixtureComponent[];
  /** The row's source, as the file names it, and the file it came from. */
  source: string;
}

/** The rows of the file; a row whose counts or fractions do not add up is left out. First row of a name wins. */
export function parseMixtureFile(text: string): NamedMixture[] {
  const mixtures: NamedMixture[] = [];
  for (const line of text.split('\n').slice(1)) {
    const fields = line.replace(/\r$/, '').split('\t');
    const n = Number(fields[2]);
    if (!Number.isInteger(n) || n < 1 || fields.length < 3 + 4 * n) continue;
    const at = (block: number) => fields.slice(3 + block * n, 3 + (block + 1) * n).map((f) => f.trim());
    const [cas, names, , moles] = [at(0), at(1), at(2), at(3)];
    const fractions = moles.map(Number);
    if (fractions.some((x) => !Number.isFinite(x) || x <= 0)) continue;
    const name = fields[0].trim();
    mixtures.push({
      name,
      synonyms: [...new Set(fields.slice(3 + 4 * n).map((f) => f.trim()))].filter((s) => s !== '' && s !== name),
      components: cas.map((c, i) => ({ cas: c, name: names[i], moleFraction: fractions[i] })),
      source: `${fields[1].trim()}, as tabulated in the chemicals library (C. Bell, github.com/CalebBell/chemicals, ${MIXTURES_FILE})`,
    });
  }
  return mixtures;
}

let loaded: { dir: string; byKey: ReadonlyMap<string, NamedMixture> } | undefined;

/** Normalised name or synonym → mixture; empty when the file is absent. */
export function mixtureNames(): ReadonlyMap<string, NamedMixture> {
  const dir = layerDir('pubchem-names');
  if (loaded?.dir !== dir) {
    const file = join(/* turbopackIgnore: true */ dir, MIXTURES_FILE);
    const byKey = new Map<string, NamedMixture>();
    if (existsSync(/* turbopackIgnore: true */ file)) {
      for (const mixture of parseMixtureFile(readFileSync(/* turbopackIgnore: true */ file, 'utf8'))) {
        for (const text of [mixture.name, ...mixture.synonyms]) {
          const key = normalizeKey(text);
          if (key !== '' && !byKey.has(key)) byKey.set(key, mixture);
        }
      }
    }
    loaded = { dir, byKey };
  }
  return loaded.byKey;
}

/** The named mixture a query means, if any. */
export function findMixture(query: string): NamedMixture | undefined {
  return mixtureNames().get(normalizeKey(query));
}

/**
 * Names of mixtures with no one composition, which the table does not hold: a short list of words that
 * name mixtures (no data), so that they meet a clear refusal instead of "no compound matches".
 */
export const VARIABLE_MIXTURES: readonly string[] = [
  'gasoline',
  'petrol',
  'diesel',
  'diesel fuel',
  'kerosene',
  'jet fuel',
  'LPG',
  'liquefied petroleum gas',
];

/** The catalogue's name for a component (the table writes "CO2", "R32"), else the table's. */
export function componentName(component: MixtureComponent): string {
  try {
    return findCompound(component.cas).compound.name;
  } catch {
    return component.name;
  }
}

/**
 * The is_mixture error for a query naming a mixture, undefined for any other: with the table's composition,
 * ready for service_mixture_properties, or, for a fuel of variable composition, what to pass instead.
 * `also` is appended (what else answers for it); `tableName` is the mixture's row when the query is not
 * one of its names (air's CAS number).
 */
export function mixtureError(query: string, also = '', tableName = query): ToolError | undefined {
  const text = query.trim();
  const mixture = findMixture(tableName);
  if (mixture) {
    const components = mixture.components.map((c) => ({
      compound_name: componentName(c),
      mole_fraction: c.moleFraction,
    }));
    const sum = mixture.components.reduce((s, c) => s + c.moleFraction, 0);
    // service_mixture_properties wants a sum of 1 within 1e-6; some rows are rounded further.
    const normalise =
      Math.abs(sum - 1) > 1e-6 ? ` They sum to ${Number(sum.toPrecision(7))}: divide each by the sum.` : '';
    return new ToolError(
      'is_mixture',
      `"${text}" is a mixture, not one compound: ${mixture.name} is ${components.map((c) => `${c.compound_name} ${c.mole_fraction}`).join(', ')} (mole fractions; ${mixture.source}). Pass these, or your own composition, as components to service_mixture_properties.${normalise}${also}`,
      { query, mixture: mixture.name, components, source: mixture.source },
    );
  }
  const key = normalizeKey(text);
  if (VARIABLE_MIXTURES.some((name) => normalizeKey(name) === key)) {
    return new ToolError(
      'is_mixture',
      `"${text}" is a mixture of variable composition, not one compound: pass its components with their mole fractions to service_mixture_properties (components [{compound_name, mole_fraction}]).`,
      { query },
    );
  }
  return undefined;
}
