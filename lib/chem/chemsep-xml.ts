/**
 * Reads the scalar constants of a ChemSep pure-component database file (e.g. chemsep1.xml, which
 * users download with ChemSep Lite; Artistic License 2.0) into this project's property keys and
 * units. Each constant is an element like <CriticalPressure units="Pa" value="4599000" />.
 * A unit we do not know is an error rather than a silent misreading.
 */
import type { PropertyKey } from './properties.ts';

export interface ChemSepRecord {
  name: string;
  cas: string;
  values: Partial<Record<PropertyKey, number>>;
}

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
};

const COMPOUND = /<compound>([\s\S]*?)<\/compound>/g;
const EMPTY_ELEMENT = /<(\w+)\s([^<>]*?)\/>/g;
const ATTRIBUTE = /(\w+)="([^"]*)"/g;

export function parseChemSepXml(xml: string): ChemSepRecord[] {
  const records: ChemSepRecord[] = [];
  for (const [, body] of xml.matchAll(COMPOUND)) {
    const record: ChemSepRecord = { name: '', cas: '', values: {} };
    for (const [, tag, attributeText] of body.matchAll(EMPTY_ELEMENT)) {
      const attributes = Object.fromEntries([...attributeText.matchAll(ATTRIBUTE)].map(([, k, v]) => [k, v]));
      if (tag === 'CompoundID') record.name = decodeEntities(attributes.value ?? '');
      else if (tag === 'CAS') record.cas = attributes.value ?? '';
      else if (tag in FIELDS) {
        const { key, factors } = FIELDS[tag];
        const factor = factors[attributes.units];
        if (factor === undefined) throw new Error(`ChemSep ${record.name || '?'}: ${tag} in unknown unit "${attributes.units}"`);
        const value = Number(attributes.value);
        if (attributes.value !== undefined && Number.isFinite(value)) record.values[key] = value * factor;
      }
    }
    records.push(record);
  }
  return records;
}

function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
}
