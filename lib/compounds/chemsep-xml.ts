/**
 * Reads a ChemSep pure-component database file (e.g. chemsep1.xml, which users download with
 * ChemSep Lite; Artistic License 2.0): each compound's identifiers, its scalar constants converted
 * into this project's property keys and units, and its temperature-dependent equations as written.
 * A constant is an element like <CriticalPressure units="Pa" value="4599000" />; an equation is an
 * element holding <eqno>, coefficients <A>…<E> and its range <Tmin>/<Tmax>.
 * A unit we do not know is an error rather than a silent misreading.
 */
import type { PropertyKey } from '../chem/properties.ts';

export interface ChemSepEquation {
  /** ChemSep's equation number, which fixes the form (e.g. 10: ln y = A − B/(C + T)). */
  eqno: number;
  /** The unit of the equation's result, as the file writes it. */
  units: string;
  coefficients: Partial<Record<'A' | 'B' | 'C' | 'D' | 'E', number>>;
  /** Range of validity, K. */
  tmin?: number;
  tmax?: number;
}

export interface ChemSepRecord {
  name: string;
  cas: string;
  values: Partial<Record<PropertyKey, number>>;
  /** The file's structural formula ("CH3CH2OH", "-(CH2)6-"); not always a plain formula. */
  structure?: string;
  smiles?: string;
  /** Equations by element name (VaporPressure, AntoineVaporPressure, IdealGasHeatCapacityCp, …). */
  equations: Record<string, ChemSepEquation>;
}

/** One debye in C·m (1 D = 10⁻²¹/c C·m ≈ 3.33564e-30 C·m), as properties.ts states it. */
const DEBYE = 3.33564e-30;

/** ChemSep element → our property and the factor from each ChemSep unit to ours. */
const FIELDS: Record<string, { key: PropertyKey; factors: Record<string, number> }> = {
  MolecularWeight: { key: 'molecular_weight', factors: { 'kg/kmol': 1 } },
  CriticalTemperature: { key: 'critical_temperature', factors: { K: 1 } },
  CriticalPressure: { key: 'critical_pressure', factors: { Pa: 1e-5 } },
  CriticalVolume: { key: 'critical_volume', factors: { 'm3/kmol': 1000 } },
  CriticalCompressibility: { key: 'critical_compressibility', factors: { _: 1 } },
  AcentricityFactor: { key: 'acentric_factor', factors: { _: 1 } },
  NormalBoilingPointTemperature: { key: 'normal_boiling_point', factors: { K: 1 } },
  NormalMeltingPointTemperature: { key: 'melting_point', factors: { K: 1 } },
  HeatOfFormation: { key: 'enthalpy_of_formation_gas', factors: { 'J/kmol': 1e-6 } },
  GibbsEnergyOfFormation: { key: 'gibbs_energy_of_formation_gas', factors: { 'J/kmol': 1e-6 } },
  DipoleMoment: { key: 'dipole_moment', factors: { 'Coulomb.m': 1 / DEBYE } },
  RacketParameter: { key: 'rackett_compressibility', factors: { _: 1 } },
};

const COMPOUND = /<compound>([\s\S]*?)<\/compound>/g;
/** An element with content: in a compound, that is an equation (or a group list such as <Umr>). */
const BLOCK = /<(\w+)\b([^<>]*)>([\s\S]*?)<\/\1>/g;
const EMPTY_ELEMENT = /<(\w+)\s([^<>]*?)\/>/g;
const ATTRIBUTE = /(\w+)="([^"]*)"/g;

const attributesOf = (text: string): Record<string, string> =>
  Object.fromEntries([...text.matchAll(ATTRIBUTE)].map(([, k, v]) => [k, v]));

/** Products of unit conversions carry binary noise (4599000 · 1e-5 = 45.990000000000002); 12 digits is far past any datum. */
const clean = (value: number) => Number(value.toPrecision(12));

export function parseChemSepXml(xml: string): ChemSepRecord[] {
  const records: ChemSepRecord[] = [];
  for (const [, body] of xml.matchAll(COMPOUND)) {
    const record: ChemSepRecord = { name: '', cas: '', values: {}, equations: {} };
    for (const [, tag, attributeText, content] of body.matchAll(BLOCK)) {
      const equation = readEquation(attributesOf(attributeText), content);
      if (equation) record.equations[tag] = equation;
    }
    for (const [, tag, attributeText] of body.replace(BLOCK, '').matchAll(EMPTY_ELEMENT)) {
      const attributes = attributesOf(attributeText);
      if (tag === 'CompoundID') record.name = decodeEntities(attributes.value ?? '');
      else if (tag === 'CAS') record.cas = (attributes.value ?? '').trim();
      else if (tag === 'StructureFormula') record.structure = decodeEntities(attributes.value ?? '').trim() || undefined;
      else if (tag === 'Smiles') record.smiles = decodeEntities(attributes.value ?? '').trim() || undefined;
      else if (tag in FIELDS) {
        const { key, factors } = FIELDS[tag];
        const factor = factors[attributes.units];
        if (factor === undefined) throw new Error(`ChemSep ${record.name || '?'}: ${tag} in unknown unit "${attributes.units}"`);
        const value = Number(attributes.value);
        if (attributes.value !== undefined && attributes.value.trim() !== '' && Number.isFinite(value)) record.values[key] = clean(value * factor);
      }
    }
    records.push(record);
  }
  return records;
}

function readEquation(attributes: Record<string, string>, content: string): ChemSepEquation | undefined {
  const parts = Object.fromEntries([...content.matchAll(EMPTY_ELEMENT)].map(([, tag, text]) => [tag, attributesOf(text)]));
  const number = (tag: string) => {
    const value = parts[tag]?.value;
    return value !== undefined && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined;
  };
  const eqno = number('eqno');
  if (eqno === undefined) return undefined;
  const coefficients: ChemSepEquation['coefficients'] = {};
  for (const name of ['A', 'B', 'C', 'D', 'E'] as const) {
    const value = number(name);
    if (value !== undefined) coefficients[name] = value;
  }
  const kelvin = (tag: string) => (parts[tag] && parts[tag].units !== 'K' ? undefined : number(tag));
  return { eqno, units: attributes.units ?? '', coefficients, tmin: kelvin('Tmin'), tmax: kelvin('Tmax') };
}

/** The version the file's root element names ("ChemSep v8.3 pure component data …" → "8.3"). */
export function chemSepVersion(xml: string): string | undefined {
  const root = /<compounds\b([^>]*)>/.exec(xml);
  const library = root ? attributesOf(root[1]).library : undefined;
  return library ? /ChemSep\s+v?(\d+(?:\.\d+)*)/i.exec(library)?.[1] : undefined;
}

function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
}
