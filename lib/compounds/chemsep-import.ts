/**
 * A ChemSep pure-component file (chemsep1.xml and files in its format) as compounds to import: its
 * constants in our units (../chem/chemsep-xml.ts converts them: K, Pa → bar, m3/kmol → cm3/mol,
 * J/kmol → kJ/mol, C·m → D), each value citing "ChemSep <version> (imported from <file>)".
 *
 * What ChemSep does not give directly:
 * - the formula: taken from its structural formula ("CH3CH2OH", "-(CH2)6-": the ring bonds dropped)
 *   and accepted only when its molar mass agrees with the file's molecular weight within 0.1 %;
 * - molecular_weight: computed from that formula, as for the built-in data.
 * Correlations are mapped only where the equation form is certain:
 * - Antoine, ChemSep equation 10, ln(P/Pa) = A − B/(T/K + C), into our log10(P/bar) form:
 *   A' = A/ln 10 − 5, B' = B/ln 10, C' = C;
 * - ideal-gas Cp, equations 4 (A + BT + CT² + DT³) and 100 (… + ET⁴) in J/(kmol·K), into
 *   Cp°/R = a0 + … + a4·T⁴ with aᵢ = coefficient/(1000·R).
 * Others (DIPPR 101 vapour pressure, 16/107 heat capacities, liquid density, …) are left out.
 * Records that cannot be served (a mixture such as air, no SMILES, an invalid CAS number) are skipped
 * with the reason; the file itself is the user's licensed copy, not something they can fix.
 */

import { type ChemSepEquation, type ChemSepFile, type ChemSepRecord, parseChemSepXml } from '../chem/chemsep-xml.ts';
import { type Compound, molecularWeightValue } from '../chem/compounds.ts';
import type { Correlations, HeatCapacityCorrelation } from '../chem/correlations.ts';
import { hillFormula, molarMass, parseFormula } from '../chem/formula.ts';
import { PROPERTY_DEFINITIONS, PROPERTY_KEYS, type PropertyKey, type PropertyValue } from '../chem/properties.ts';
import { checkCompound } from './registration.ts';

/** Molar gas constant, J/(mol·K), exact since the 2019 SI (CODATA 2018). */
const R = 8.314462618;

/** Relative agreement required between the formula's molar mass and the file's molecular weight. */
const MOLECULAR_WEIGHT_TOLERANCE = 0.001;

export interface ChemSepImportRecord {
  /** "compound 12": where the record is in the file (the 12th <compound>). */
  where: string;
  compound: Compound;
}

export interface ChemSepSkip {
  where: string;
  name: string;
  reason: string;
}

export interface ChemSepImport {
  version?: string;
  /** The citation every imported value carries. */
  source: string;
  records: ChemSepImportRecord[];
  skipped: ChemSepSkip[];
}

function chemSepSource(version: string | undefined, fileName: string): string {
  return `ChemSep${version ? ` ${version}` : ''} (imported from ${fileName})`;
}

/** Throws when the text is not a ChemSep compound file at all. */
export function readChemSepImport(xml: string, fileName: string): ChemSepImport {
  const file = parseChemSepXml(xml);
  if (file.records.length === 0)
    throw new Error(`${fileName} holds no <compound> elements; it is not a ChemSep pure-component file.`);
  return chemSepImportOf(file, chemSepSource(file.version, fileName));
}

/** The compounds of a parsed ChemSep file, every value citing `source`; records that cannot be served are skipped with why. */
export function chemSepImportOf({ version, records: parsed }: ChemSepFile, source: string): ChemSepImport {
  const records: ChemSepImportRecord[] = [];
  const skipped: ChemSepSkip[] = [];
  parsed.forEach((record, i) => {
    const where = `compound ${i + 1}`;
    try {
      records.push({ where, compound: toCompound(record, source) });
    } catch (error) {
      skipped.push({ where, name: record.name, reason: (error as Error).message });
    }
  });
  return { version, source, records, skipped };
}

function toCompound(record: ChemSepRecord, source: string): Compound {
  if (!record.name) throw new Error('it has no name (CompoundID)');
  if (!record.smiles) throw new Error('it has no SMILES');
  const counts = record.structure ? parseFormula(record.structure.replace(/[-\s]/g, '')) : undefined;
  const weight = record.values.molecular_weight;
  if (!counts) throw new Error(`its structure "${record.structure ?? ''}" is not the formula of one compound`);
  if (weight === undefined || Math.abs(molarMass(counts) - weight) > MOLECULAR_WEIGHT_TOLERANCE * weight) {
    throw new Error(
      `its structure "${record.structure}" (${molarMass(counts).toFixed(3)} g/mol) disagrees with its molecular weight ${weight ?? '(none)'}`,
    );
  }
  const properties: Partial<Record<PropertyKey, PropertyValue>> = { molecular_weight: molecularWeightValue(counts) };
  for (const key of PROPERTY_KEYS) {
    const value = record.values[key];
    if (key === 'molecular_weight' || value === undefined) continue;
    properties[key] = { value, unit: PROPERTY_DEFINITIONS[key].unit, source };
  }
  const correlations = chemSepCorrelations(record.equations, source);
  return checkCompound({
    name: record.name,
    cas: record.cas,
    formula: hillFormula(counts),
    smiles: record.smiles,
    synonyms: [],
    properties,
    ...(correlations ? { correlations } : {}),
  });
}

/** The equations whose form is certain, in our correlation forms (see the module comment). */
function chemSepCorrelations(equations: Record<string, ChemSepEquation>, source: string): Correlations | undefined {
  const correlations: { vapor_pressure?: Correlations['vapor_pressure']; ideal_gas_cp?: HeatCapacityCorrelation } = {};
  const antoine = equations.AntoineVaporPressure;
  const antoineRange = antoine && range(antoine);
  if (antoine?.eqno === 10 && antoine.units === 'Pa' && antoineRange && has(antoine, ['A', 'B', 'C'])) {
    const { A, B, C } = antoine.coefficients as { A: number; B: number; C: number };
    correlations.vapor_pressure = [
      {
        equation: 'antoine',
        coefficients: { A: A / Math.LN10 - 5, B: B / Math.LN10, C },
        valid_range: antoineRange,
        source,
      },
    ];
  }
  for (const tag of ['IdealGasHeatCapacityCp', 'RPPHeatCapacityCp']) {
    const cp = equations[tag];
    const cpRange = cp && range(cp);
    const form =
      cp?.eqno === 4
        ? (['A', 'B', 'C', 'D'] as const)
        : cp?.eqno === 100
          ? (['A', 'B', 'C', 'D', 'E'] as const)
          : undefined;
    if (!cp || !form || cp.units !== 'J/kmol/K' || !cpRange || !has(cp, form)) continue;
    const a = (name: 'A' | 'B' | 'C' | 'D' | 'E') => (cp.coefficients[name] ?? 0) / (1000 * R);
    correlations.ideal_gas_cp = {
      equation: 'cp_poly4',
      coefficients: [a('A'), a('B'), a('C'), a('D'), a('E')],
      valid_range: cpRange,
      source,
    };
    break;
  }
  return Object.keys(correlations).length ? correlations : undefined;
}

function range(equation: ChemSepEquation): { min: number; max: number; unit: 'K' } | undefined {
  const { tmin, tmax } = equation;
  return tmin !== undefined && tmax !== undefined && tmin > 0 && tmin < tmax
    ? { min: tmin, max: tmax, unit: 'K' }
    : undefined;
}

function has(equation: ChemSepEquation, names: readonly ('A' | 'B' | 'C' | 'D' | 'E')[]): boolean {
  return names.every((name) => equation.coefficients[name] !== undefined);
}
