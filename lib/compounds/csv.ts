/**
 * The CSV format for importing a user's own compound data (`cli compounds import file.csv`). The
 * format is documented in docs/compounds.md and in the command's help; this
 * module is its one implementation. Every row is checked and every defect is reported with its row
 * (the line the record starts on; the header is row 1) and column, so a file is fixed in one pass.
 *
 * Columns, in any order, names case-insensitive:
 * - name, cas, formula, smiles: required for every row;
 * - inchikey, synonyms (separated by ";"), notes (one free-text note): optional;
 * - one column per property, named <property>_<unit> with "/" written "_" (critical_temperature_K,
 *   critical_pressure_bar, critical_volume_cm3_mol, …), or just <property> when it is dimensionless
 *   (acentric_factor); an empty cell means unknown. Values must be in exactly that unit: the header
 *   says which, and values far outside the plausible range for it are refused as a likely unit mix-up;
 * - a temperature-dependent property (liquid_density_kg_m3) needs <property>_temperature_K beside it;
 * - source: the published source of the row's values, required when the row has any.
 * molecular_weight is not a column: it is computed from the formula, as for the built-in data.
 */
import { CsvError as CsvParseError, parse } from 'csv-parse/sync';
import { isValidCas } from '../chem/cas.ts';
import { type Compound, molecularWeightValue } from '../chem/compounds.ts';
import { hillFormula, parseFormula } from '../chem/formula.ts';
import { MAX_QUERY_LENGTH } from '../chem/lookup.ts';
import {
  PROPERTY_DEFINITIONS,
  PROPERTY_KEYS,
  type PropertyKey,
  type PropertyValue,
  TEMPERATURE_DEPENDENT,
} from '../chem/properties.ts';
import { CompoundIdentifiers, checkCompound, describeClash, INCHIKEY_PATTERN } from './registration.ts';

interface CsvRecord {
  /** "row 4": where the record is in the file. */
  where: string;
  compound: Compound;
}

export interface CsvError {
  row: number;
  column?: string;
  message: string;
}

interface CsvParseResult {
  records: CsvRecord[];
  /** Non-empty means the file is refused as a whole. */
  errors: CsvError[];
}

const IDENTITY_COLUMNS = ['name', 'cas', 'formula', 'smiles', 'inchikey', 'synonyms', 'notes', 'source'] as const;
const REQUIRED_COLUMNS = ['name', 'cas', 'formula', 'smiles'] as const;

/** Values outside these bounds are almost surely in another unit (Pa for bar, J/mol for kJ/mol, g/cm3 for kg/m3). */
const PLAUSIBLE: Partial<Record<PropertyKey, { min: number; max: number; minExclusive?: boolean }>> = {
  critical_temperature: { min: 0, max: 10000, minExclusive: true },
  critical_pressure: { min: 0, max: 2000, minExclusive: true },
  critical_volume: { min: 10, max: 10000 },
  critical_compressibility: { min: 0, max: 1, minExclusive: true },
  acentric_factor: { min: -1, max: 3 },
  normal_boiling_point: { min: 0, max: 10000, minExclusive: true },
  sublimation_point: { min: 0, max: 10000, minExclusive: true },
  melting_point: { min: 0, max: 10000, minExclusive: true },
  enthalpy_of_formation_gas: { min: -5000, max: 5000 },
  gibbs_energy_of_formation_gas: { min: -5000, max: 5000 },
  dipole_moment: { min: 0, max: 20 },
  liquid_density: { min: 10, max: 25000 },
  rackett_compressibility: { min: 0, max: 1, minExclusive: true },
};
const TEMPERATURE_RANGE = { min: 0, max: 10000, minExclusive: true };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The column a property's values go in: its key and its unit, "/" written "_". */
function propertyColumn(key: PropertyKey): string {
  const unit = PROPERTY_DEFINITIONS[key].unit;
  return unit === '' ? key : `${key}_${unit.replaceAll('/', '_')}`;
}

function temperatureColumn(key: PropertyKey): string {
  return `${key}_temperature_K`;
}

/** Every property a CSV file can carry: all but molecular_weight, which is computed. */
const CSV_PROPERTY_KEYS = PROPERTY_KEYS.filter((key) => key !== 'molecular_weight');

/** All columns the format knows, in the order docs/compounds.md lists them. */
export function csvColumns(): string[] {
  return [
    ...IDENTITY_COLUMNS,
    ...CSV_PROPERTY_KEYS.flatMap((key) => [
      propertyColumn(key),
      ...(TEMPERATURE_DEPENDENT.has(key) ? [temperatureColumn(key)] : []),
    ]),
  ];
}

type Column =
  | { kind: 'identity'; name: (typeof IDENTITY_COLUMNS)[number] }
  | { kind: 'property'; key: PropertyKey }
  | { kind: 'temperature'; key: PropertyKey };

function headerColumns(header: string[], row: number, errors: CsvError[]): Column[] | undefined {
  const problems: CsvError[] = [];
  const known = new Map<string, Column>();
  for (const name of IDENTITY_COLUMNS) known.set(name, { kind: 'identity', name });
  for (const key of CSV_PROPERTY_KEYS) {
    known.set(propertyColumn(key).toLowerCase(), { kind: 'property', key });
    if (TEMPERATURE_DEPENDENT.has(key)) known.set(temperatureColumn(key).toLowerCase(), { kind: 'temperature', key });
  }
  const columns: Column[] = [];
  const seen = new Set<string>();
  header.forEach((raw, i) => {
    const name = raw.trim();
    const lower = name.toLowerCase();
    const column = known.get(lower);
    if (seen.has(lower)) problems.push({ row, column: name, message: `column ${i + 1} "${name}" appears twice` });
    seen.add(lower);
    if (column) columns.push(column);
    else problems.push({ row, column: name || `#${i + 1}`, message: unknownColumn(name, i) });
  });
  if (columns.length === 0) {
    // Listing every field as an unknown column would bury the actual problem.
    errors.push({
      row,
      message: `the first row must name the columns (${REQUIRED_COLUMNS.join(', ')}, …), but none of its ${header.length} fields is a column name; is the header row missing?`,
    });
    return undefined;
  }
  for (const required of REQUIRED_COLUMNS) {
    if (!seen.has(required))
      problems.push({ row, column: required, message: `the required column "${required}" is missing` });
  }
  errors.push(...problems);
  return problems.length ? undefined : columns;
}

function unknownColumn(name: string, index: number): string {
  if (name === '') return `column ${index + 1} has no name`;
  const lower = name.toLowerCase();
  if (lower.startsWith('molecular_weight')) return 'molecular_weight is computed from the formula; remove this column';
  const key = CSV_PROPERTY_KEYS.find((k) => lower === k || lower.startsWith(`${k}_`));
  if (key)
    return `"${name}": ${key} must be given in ${PROPERTY_DEFINITIONS[key].unit || 'dimensionless form'}, in a column named "${propertyColumn(key)}"`;
  return `unknown column "${name}" (known columns: ${csvColumns().join(', ')})`;
}

/** Parses and checks a whole CSV file. Records are returned only when no row has an error. */
export function parseCompoundCsv(text: string): CsvParseResult {
  const errors: CsvError[] = [];
  const rows = splitCsv(text, errors);
  if (errors.length) return { records: [], errors };
  const [header, ...body] = rows;
  if (!header)
    return { records: [], errors: [{ row: 1, message: 'the file is empty; the first row must name the columns' }] };
  const columns = headerColumns(header.fields, header.line, errors);
  if (!columns) return { records: [], errors };
  if (body.length === 0)
    return { records: [], errors: [{ row: header.line + 1, message: 'the file has a header but no compounds' }] };

  const records: CsvRecord[] = [];
  const taken = new CompoundIdentifiers<{ row: number; name: string }>();
  for (const { line, fields } of body) {
    const rowErrors: CsvError[] = [];
    const compound = readRow(line, fields, columns, header.fields, rowErrors);
    if (compound) {
      for (const clash of taken.clashes(compound)) {
        rowErrors.push({
          row: line,
          column: clash.kind,
          message: describeClash(clash, (o) => `row ${o.row} (${o.name})`),
        });
      }
      taken.add(compound, { row: line, name: compound.name });
    }
    errors.push(...rowErrors);
    if (compound && rowErrors.length === 0) records.push({ where: `row ${line}`, compound });
  }
  return errors.length ? { records: [], errors } : { records, errors };
}

function readRow(
  line: number,
  fields: string[],
  columns: Column[],
  header: string[],
  errors: CsvError[],
): Compound | undefined {
  if (fields.length !== columns.length) {
    errors.push({ row: line, message: `has ${fields.length} fields; the header has ${columns.length}` });
    return undefined;
  }
  const error = (column: string, message: string) => errors.push({ row: line, column, message });
  const identity: Partial<Record<(typeof IDENTITY_COLUMNS)[number], string>> = {};
  const numbers: { column: Column & { kind: 'property' | 'temperature' }; header: string; value: number }[] = [];
  const filled = new Set<PropertyKey>();
  for (const [i, column] of columns.entries()) {
    const cell = fields[i].trim();
    if (column.kind === 'identity') {
      identity[column.name] = cell;
      continue;
    }
    if (cell === '') continue;
    if (column.kind === 'property') filled.add(column.key);
    const value = NUMBER.test(cell) ? Number(cell) : NaN;
    if (!Number.isFinite(value)) {
      error(header[i].trim(), `"${cell}" is not a number`);
      continue;
    }
    const range = column.kind === 'property' ? PLAUSIBLE[column.key] : TEMPERATURE_RANGE;
    if (range && (value > range.max || (range.minExclusive ? value <= range.min : value < range.min))) {
      const unit = column.kind === 'property' ? PROPERTY_DEFINITIONS[column.key].unit || 'dimensionless' : 'K';
      const bounds = `${range.minExclusive ? 'above' : 'at least'} ${range.min} and at most ${range.max}`;
      error(
        header[i].trim(),
        `${cell} is not a plausible value in ${unit} (expected ${bounds}); is it in another unit?`,
      );
      continue;
    }
    numbers.push({ column: column as Column & { kind: 'property' | 'temperature' }, header: header[i].trim(), value });
  }

  for (const required of REQUIRED_COLUMNS) if (!identity[required]) error(required, 'is empty');
  const name = identity.name ?? '';
  if (name.length > MAX_QUERY_LENGTH) error('name', `is longer than ${MAX_QUERY_LENGTH} characters`);
  const cas = identity.cas ?? '';
  if (cas) {
    const problem = casProblem(cas);
    if (problem) error('cas', problem);
  }
  const counts = identity.formula ? parseFormula(identity.formula.replace(/\s+/g, '')) : undefined;
  if (identity.formula && !counts)
    error('formula', `"${identity.formula}" does not parse as a formula of known elements (e.g. C2H6O, CH3(CH2)4CH3)`);
  if (identity.smiles && /\s/.test(identity.smiles)) error('smiles', 'a SMILES string has no spaces');
  if (identity.inchikey && !INCHIKEY_PATTERN.test(identity.inchikey))
    error('inchikey', `"${identity.inchikey}" is not a standard InChIKey (XXXXXXXXXXXXXX-XXXXXXXXXX-X)`);

  const properties: Partial<Record<PropertyKey, PropertyValue>> = {};
  const temperatures = new Map<PropertyKey, number>();
  for (const n of numbers) if (n.column.kind === 'temperature') temperatures.set(n.column.key, n.value);
  const source = identity.source ?? '';
  const values = numbers.filter((n) => n.column.kind === 'property');
  if (values.length > 0 && !source)
    error('source', 'is empty, but the row has values: name the published source they come from');
  for (const { column, value } of values) {
    const key = column.key;
    const temperature = temperatures.get(key);
    if (TEMPERATURE_DEPENDENT.has(key) && temperature === undefined) {
      error(temperatureColumn(key), `is empty: ${propertyColumn(key)} needs the temperature it holds at`);
    }
    properties[key] = {
      value,
      unit: PROPERTY_DEFINITIONS[key].unit,
      source,
      ...(temperature === undefined ? {} : { temperature: { value: temperature, unit: 'K' as const } }),
    };
  }
  for (const key of temperatures.keys()) {
    if (!filled.has(key)) error(temperatureColumn(key), `is given without a value in ${propertyColumn(key)}`);
  }
  const tm = properties.melting_point?.value;
  const tb = properties.normal_boiling_point?.value;
  const tc = properties.critical_temperature?.value;
  if (tb !== undefined && tc !== undefined && !(tb < tc))
    error(propertyColumn('normal_boiling_point'), `${tb} K is not below the critical temperature ${tc} K`);
  if (tm !== undefined && tb !== undefined && !(tm < tb))
    error(propertyColumn('melting_point'), `${tm} K is not below the normal boiling point ${tb} K`);
  if (errors.length || !counts) return undefined;

  try {
    return checkCompound({
      name,
      cas,
      formula: hillFormula(counts),
      smiles: identity.smiles,
      ...(identity.inchikey ? { inchikey: identity.inchikey } : {}),
      synonyms: (identity.synonyms ?? '')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean),
      ...(identity.notes ? { notes: [identity.notes] } : {}),
      properties: { molecular_weight: molecularWeightValue(counts), ...properties },
    });
  } catch (e) {
    error('', (e as Error).message);
    return undefined;
  }
}

/** Why `cas` is not a CAS Registry Number, naming the check digit it should have when that is the problem. */
function casProblem(cas: string): string | undefined {
  if (isValidCas(cas)) return undefined;
  if (!/^\d{2,7}-\d{2}-\d$/.test(cas))
    return `"${cas}" is not a CAS number (2–7 digits, 2 digits, 1 check digit: 64-17-5)`;
  const expected = [...'0123456789'].find((digit) => isValidCas(cas.slice(0, -1) + digit));
  return `${cas} fails the CAS check digit (it should end in ${expected})`;
}

/**
 * RFC 4180 records, read by csv-parse: fields separated by commas, optionally in double quotes (a
 * quote inside written twice), records by CRLF, LF or CR, mixed as they come; a quoted field may span
 * lines. Blank space around a quoted field is dropped, other text after its closing quote refused; a
 * quote inside an unquoted field is just a character. Blank lines are skipped. Each record keeps the
 * line it starts on.
 */
function splitCsv(text: string, errors: CsvError[]): { line: number; fields: string[] }[] {
  const rows: { line: number; fields: string[] }[] = [];
  const bytes = Buffer.from(text);
  let line = 1; // where the next record starts
  let offset = 0; // the byte it starts at
  try {
    parse(bytes, {
      bom: true,
      skip_empty_lines: true, // a blank line is no record (and millions of them stay cheap)
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_quotes: true,
      relax_column_count: true, // readRow reports a row of the wrong length, naming both counts
      ltrim: true,
      rtrim: true,
      on_record: (fields, info) => {
        // info.bytes: all read so far, this record's line end included, after any blank lines skipped.
        const text = bytes.toString('utf8', offset, info.bytes);
        const blank = blankLinesAtStart(text);
        line += lineEnds(blank);
        if (!(fields.length === 1 && fields[0].trim() === '')) rows.push({ line, fields });
        line += lineBreaks(text.slice(blank.length));
        offset = info.bytes;
        return null; // kept in rows, with its line, not in parse's result
      },
    });
  } catch (error) {
    if (!(error instanceof CsvParseError)) throw error;
    // The record that failed starts after any blank lines csv-parse skipped.
    errors.push({
      row: line + lineEnds(blankLinesAtStart(bytes.toString('utf8', offset))),
      message: tokenizingProblem(error),
    });
  }
  return rows;
}

/** The blank lines (nothing but spaces and tabs) at the start of a stretch of text, which csv-parse skips. */
function blankLinesAtStart(text: string): string {
  return /^(?:[^\S\r\n]*(?:\r\n|\n|\r))*/.exec(text)?.[0] ?? '';
}

function lineEnds(text: string): number {
  return text.match(/\r\n|\n|\r/g)?.length ?? 0;
}

/** Line breaks in a record's text: LF, CRLF, or a CR ending it (a CR alone inside a quoted field is not one). */
function lineBreaks(record: string): number {
  return (record.match(/\n/g)?.length ?? 0) + (record.endsWith('\r') ? 1 : 0);
}

/** csv-parse's refusals in this module's words; the caller adds the row. */
function tokenizingProblem(error: CsvParseError): string {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return 'a quoted field is not closed (a " is missing)';
  if (error.code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE') {
    return `field ${Number(error.column) + 1} goes on after its closing quote; put the whole field in quotes, writing each " inside it as ""`;
  }
  return error.message;
}
