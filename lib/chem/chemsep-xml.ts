/**
 * Reads a ChemSep pure-component database file (e.g. chemsep1.xml, which users download with
 * ChemSep Lite; Artistic License 2.0): each compound's identifiers, its scalar constants converted
 * into this project's property keys and units, and its temperature-dependent equations as written.
 * A constant is an element like <CriticalPressure units="Pa" value="4599000" />; an equation is an
 * element holding <eqno>, coefficients <A>…<E> and its range <Tmin>/<Tmax>.
 * A unit we do not know is an error rather than a silent misreading, and so is XML that is not
 * well-formed (a truncated file would otherwise lose its last compounds without a word).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { PropertyKey } from './properties.ts';

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

export interface ChemSepFile {
  /** The version the root element's library attribute names ("ChemSep v8.3 pure component data …" → "8.3"). */
  version?: string;
  /** One per <compound>, in file order. */
  records: ChemSepRecord[];
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

/** Where the parser puts an element's attributes (no element can be named "@"). */
const ATTRIBUTES = '@';

/**
 * Every element becomes a list of its occurrences, so one reading serves single and repeated ones.
 * Attribute values stay text exactly as written (numbers are converted below, with their unit; " K"
 * is not K). No entity is expanded, so a DOCTYPE's entities cannot grow the text (and the parser
 * refuses external ones); the five predefined entities are decoded below in the text fields.
 */
const PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: ATTRIBUTES,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  isArray: (_tag, _path, _leaf, isAttribute) => !isAttribute,
});

/** An element as PARSER gives it: its attributes and child lists, or "" when it has neither. */
type XmlElement = string | { [key: string]: unknown };

const attributesOf = (element: XmlElement | undefined): Record<string, string> =>
  typeof element === 'object' ? ((element[ATTRIBUTES] as Record<string, string> | undefined) ?? {}) : {};

/** The child elements by tag, each tag's occurrences in document order. */
const childrenOf = (element: XmlElement): [string, XmlElement[]][] =>
  typeof element === 'object'
    ? Object.entries(element).filter((entry): entry is [string, XmlElement[]] => Array.isArray(entry[1]))
    : [];

const children = (element: XmlElement | undefined, tag: string): XmlElement[] =>
  typeof element === 'object' && Array.isArray(element[tag]) ? (element[tag] as XmlElement[]) : [];

/** The number an attribute holds; undefined when it is absent, blank or not a number. */
const numberIn = (text: string | undefined) =>
  text !== undefined && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined;

/** Products of unit conversions carry binary noise (4599000 · 1e-5 = 45.990000000000002); 12 digits is far past any datum. */
const clean = (value: number) => Number(value.toPrecision(12));

function parseXml(xml: string): XmlElement {
  try {
    return PARSER.parse(xml) as XmlElement;
  } catch (error) {
    checkWellFormed(xml); // names the place of a fault the parser only stumbles on
    throw new Error(`the file cannot be read as XML: ${(error as Error).message}`);
  }
}

function checkWellFormed(xml: string): void {
  const check = XMLValidator.validate(xml);
  if (check === true) return;
  // Elements left open at the end (a truncated file) come as "Invalid '["compounds","compound"]' found." at line 1, column 1.
  const open = /^Invalid '(\[[\s\S]*\])' found\.$/.exec(check.err.msg);
  if (open) {
    const tags = JSON.parse(open[1]) as string[];
    throw new Error(
      `the file is not well-formed XML: it ends inside <${tags.at(-1)}>, with ${tags.length} elements still open; is it cut short?`,
    );
  }
  throw new Error(
    `the file is not well-formed XML at line ${check.err.line}, column ${check.err.col}: ${check.err.msg}`,
  );
}

/** Throws on a unit we do not know, and on XML that is not well-formed or cannot be read. */
export function parseChemSepXml(xml: string): ChemSepFile {
  const roots = children(parseXml(xml), 'compounds');
  const compounds = roots.flatMap((root) => children(root, 'compound'));
  // Text without a compound is no ChemSep file, well-formed or not (the caller says so). With
  // compounds it must be well-formed: the parser alone would read a truncated last compound.
  if (compounds.length > 0) checkWellFormed(xml);
  const library = attributesOf(roots[0]).library;
  return {
    version: library ? /ChemSep\s+v?(\d+(?:\.\d+)*)/i.exec(library)?.[1] : undefined,
    records: compounds.map(readCompound),
  };
}

function readCompound(compound: XmlElement): ChemSepRecord {
  const record: ChemSepRecord = { name: '', cas: '', values: {}, equations: {} };
  for (const [tag, elements] of childrenOf(compound)) {
    for (const element of elements) {
      if (children(element, 'eqno').length > 0) {
        const equation = readEquation(element);
        if (equation) record.equations[tag] = equation;
        continue;
      }
      const attributes = attributesOf(element);
      if (tag === 'CompoundID') record.name = decodeEntities(attributes.value ?? '');
      else if (tag === 'CAS') record.cas = (attributes.value ?? '').trim();
      else if (tag === 'StructureFormula')
        record.structure = decodeEntities(attributes.value ?? '').trim() || undefined;
      else if (tag === 'Smiles') record.smiles = decodeEntities(attributes.value ?? '').trim() || undefined;
      else if (tag in FIELDS) {
        const { key, factors } = FIELDS[tag];
        const factor = factors[attributes.units];
        if (factor === undefined)
          throw new Error(`ChemSep ${record.name || '?'}: ${tag} in unknown unit "${attributes.units}"`);
        const value = numberIn(attributes.value);
        if (value !== undefined) record.values[key] = clean(value * factor);
      }
    }
  }
  return record;
}

function readEquation(element: XmlElement): ChemSepEquation | undefined {
  // A part written twice counts by its last occurrence.
  const part = (tag: string) => attributesOf(children(element, tag).at(-1));
  const eqno = numberIn(part('eqno').value);
  if (eqno === undefined) return undefined;
  const coefficients: ChemSepEquation['coefficients'] = {};
  for (const name of ['A', 'B', 'C', 'D', 'E'] as const) {
    const value = numberIn(part(name).value);
    if (value !== undefined) coefficients[name] = value;
  }
  const kelvin = (tag: string) => (part(tag).units === 'K' ? numberIn(part(tag).value) : undefined);
  return { eqno, units: attributesOf(element).units ?? '', coefficients, tmin: kelvin('Tmin'), tmax: kelvin('Tmax') };
}

/** The entities XML predefines; PARSER expands none. */
function decodeEntities(text: string): string {
  return text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!,
  );
}
