/**
 * ChemSep 8.32 as a lower-precedence data layer: the temperature correlations of the bundled, unmodified
 * chemsep1.xml (data/third-party/chemsep/, Artistic License 2.0), by CAS number, in SI units. The
 * project's own compilation and reference equations answer first; the tools fall back to these, and
 * every value they serve from here names ChemSep 8.32 and the DIPPR equation (./dippr.ts).
 *
 * The file is parsed once, on first use (about a second; server.ts warms it before serving), and the
 * parsed file is kept between processes (parsed-data-cache.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChemSepEquation, type ChemSepFile, parseChemSepXml } from './chemsep-xml.ts';
import type { ValidRange } from './correlations.ts';
import { DIPPR_FORMS, type DipprEquation, dipprValue, isDipprForm } from './dippr.ts';
import { cachedParse } from './parsed-data-cache.ts';
import { layerDir } from './third-party-data.ts';

/** The layer's file (data/third-party/chemsep/chemsep1.xml, or CHEM_DATA_DIR's). */
export function chemsepFile(): string {
  return join(/* turbopackIgnore: true */ layerDir('chemsep'), 'chemsep1.xml');
}

const CHEMSEP_SOURCE =
  'ChemSep 8.32 pure-component data (H. Kooijman, R. Taylor, chemsep1.xml, Artistic License 2.0), DIPPR-form correlation fitted to measured data';

/** The properties taken from the layer, with the ChemSep element, its unit and the factor to SI. */
const PROPERTIES = {
  vapor_pressure: { element: 'VaporPressure', unit: 'Pa', factor: 1, siUnit: 'Pa' },
  liquid_density: { element: 'LiquidDensity', unit: 'kmol/m3', factor: 1, siUnit: 'kmol/m3' },
  heat_of_vaporization: { element: 'HeatOfVaporization', unit: 'J/kmol', factor: 1e-3, siUnit: 'J/mol' },
  ideal_gas_cp: { element: 'IdealGasHeatCapacityCp', unit: 'J/kmol/K', factor: 1e-3, siUnit: 'J/(mol·K)' },
  liquid_cp: { element: 'LiquidHeatCapacityCp', unit: 'J/kmol/K', factor: 1e-3, siUnit: 'J/(mol·K)' },
} as const;

export type LayerProperty = keyof typeof PROPERTIES;

/** One correlation of the layer: its value in SI (liquid density in kmol/m3 = mol/L) at T in K. */
export interface LayerCorrelation {
  property: LayerProperty;
  equation: DipprEquation;
  /** The range of temperatures ChemSep gives for the fit. */
  range: ValidRange;
  /** The form with its coefficients, as a reader can reproduce it. */
  method: string;
  source: string;
  value(t: number): number;
}

interface ChemSepEntry {
  name: string;
  cas: string;
  /** kg/kmol (= g/mol), ChemSep's. */
  molecularWeight?: number;
  correlations: Partial<Record<LayerProperty, LayerCorrelation>>;
}

let file: ChemSepFile | undefined;
let layer: ReadonlyMap<string, ChemSepEntry> | undefined;

/** The bundled file, parsed once: the layer and lib/compounds' ChemSep-only compounds share it. */
export function bundledChemSepFile(): ChemSepFile {
  const path = chemsepFile();
  file ??= cachedParse('chemsep', [path], () =>
    parseChemSepXml(readFileSync(/* turbopackIgnore: true */ path, 'utf8')),
  );
  return file;
}

/** Every ChemSep compound by CAS number (parsed on the first call). */
export function chemsepLayer(): ReadonlyMap<string, ChemSepEntry> {
  layer ??= layerOf(bundledChemSepFile());
  return layer;
}

/** The ChemSep correlations for a CAS number, or undefined when ChemSep does not list it. */
export function chemsepEntry(cas: string): ChemSepEntry | undefined {
  return chemsepLayer().get(cas);
}

/** Builds the layer from a parsed ChemSep file. */
function layerOf(parsed: ChemSepFile): Map<string, ChemSepEntry> {
  const entries = new Map<string, ChemSepEntry>();
  for (const record of parsed.records) {
    if (!record.cas || entries.has(record.cas)) continue;
    const tc = record.values.critical_temperature;
    const correlations: ChemSepEntry['correlations'] = {};
    for (const [property, spec] of Object.entries(PROPERTIES) as [
      LayerProperty,
      (typeof PROPERTIES)[LayerProperty],
    ][]) {
      const raw = record.equations[spec.element];
      const correlation = raw && readCorrelation(property, raw, spec.unit, spec.factor, spec.siUnit, tc);
      if (correlation) correlations[property] = correlation;
    }
    entries.set(record.cas, {
      name: record.name,
      cas: record.cas,
      ...(record.values.molecular_weight === undefined ? {} : { molecularWeight: record.values.molecular_weight }),
      correlations,
    });
  }
  return entries;
}

const fmt = (x: number) => String(+x.toPrecision(7));

function readCorrelation(
  property: LayerProperty,
  raw: ChemSepEquation,
  unit: string,
  factor: number,
  siUnit: string,
  criticalTemperature: number | undefined,
): LayerCorrelation | undefined {
  // An equation in another unit, of a form we do not evaluate, or without its range is left out.
  if (raw.units !== unit || !isDipprForm(raw.eqno) || raw.tmin === undefined || raw.tmax === undefined) return;
  if (!(raw.tmin > 0 && raw.tmin < raw.tmax)) return;
  if (raw.eqno === 106 && criticalTemperature === undefined) return;
  // A density or ΔHvap fit reaches zero or its pole at Tc; ChemSep's Tmax is sometimes a little above it.
  const tmax =
    raw.eqno === 106
      ? Math.min(raw.tmax, criticalTemperature!)
      : raw.eqno === 105
        ? Math.min(raw.tmax, raw.coefficients.C ?? raw.tmax)
        : raw.tmax;
  const equation: DipprEquation = {
    form: raw.eqno,
    coefficients: raw.coefficients,
    ...(raw.eqno === 106 ? { criticalTemperature } : {}),
  };
  const coefficients = Object.entries(raw.coefficients)
    .map(([name, value]) => `${name} = ${fmt(value)}`)
    .join(', ');
  const scale = factor === 1 ? '' : ` (Y in ${unit}; ×${factor} gives ${siUnit})`;
  return {
    property,
    equation,
    range: { min: raw.tmin, max: tmax, unit: 'K' },
    method: `ChemSep DIPPR equation ${raw.eqno}: ${DIPPR_FORMS[raw.eqno]}, T in K, ${coefficients}${raw.eqno === 106 ? `, Tc = ${criticalTemperature} K` : ''}${scale}`,
    source: CHEMSEP_SOURCE,
    value: (t) => factor * dipprValue(equation, t),
  };
}
