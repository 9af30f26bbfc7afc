/**
 * service_convert_units: one quantity from one unit to another of the same dimension, with the
 * factor and whether it is exact. The science is ../unit-table.ts (definitions, spellings, offsets)
 * and ../units.ts (lookup by spelling, conversion).
 */
import { CODATA_2018_SOURCE } from '../constants.ts';
import { defineTool, type JsonSchema } from '../tool.ts';
import { DIMENSIONS, type Dimension, SI_UNITS, UNITS_SOURCE } from '../unit-table.ts';
import { convert, findUnit, listUnits } from '../units.ts';
import { answerSchema, QUANTITY, STRING, STRINGS, WARNINGS } from './answer-schema.ts';

interface ConvertUnitsArgs {
  value: number;
  from_unit: string;
  to_unit: string;
}

interface ConvertUnitsResult {
  value: { value: number; unit: string; method: string; source: string };
  input: { value: number; unit: string };
  dimension: Dimension;
  si_unit: string;
  /** Present when the conversion is purely multiplicative: result = value · factor. */
  factor?: number;
  /** The conversion in words: "1 atm = 101.325 kPa" or "°F = 1.8·°C + 32". */
  relation: string;
  exact: boolean;
  /** Definitions of the units that need one (which calorie, which gallon…). */
  definitions?: string[];
  warnings?: string[];
}

const MAX_UNIT_LENGTH = 40;

const outputSchema = answerSchema(
  {
    value: QUANTITY,
    input: QUANTITY,
    dimension: STRING,
    si_unit: STRING,
    factor: { type: 'number', description: 'result = value × factor; omitted between temperature scales.' },
    relation: STRING,
    exact: { type: 'boolean' },
    definitions: STRINGS,
    warnings: WARNINGS,
  },
  ['factor', 'definitions', 'warnings'],
);

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_convert_unitsArguments',
  properties: {
    value: { type: 'number', title: 'Value', description: 'In from_unit.' },
    from_unit: {
      type: 'string',
      title: 'From Unit',
      minLength: 1,
      maxLength: MAX_UNIT_LENGTH,
      description: 'e.g. "atm", "°C", "kJ/mol", "J/(mol·K)", "g/cm3", "psi".',
    },
    to_unit: {
      type: 'string',
      title: 'To Unit',
      minLength: 1,
      maxLength: MAX_UNIT_LENGTH,
      description: 'Same dimension as from_unit.',
    },
  },
  required: ['value', 'from_unit', 'to_unit'],
  additionalProperties: false,
};

/** Every accepted unit by dimension, for the description: an LLM client should not have to guess. */
const catalogue = DIMENSIONS.map(
  (d) =>
    `${d.replace(/_/g, ' ')}${d === 'molar_entropy' ? ' / molar heat capacity' : ''} (${listUnits(d)
      .map((u) => u.symbol)
      .join(', ')})`,
).join('; ');

export const convertUnitsTool = defineTool<ConvertUnitsArgs, ConvertUnitsResult>({
  name: 'service_convert_units',
  title: 'Convert units',
  description: [
    'Convert a value between units of one dimension (temperature, pressure, energy, molar quantities, density, volume, viscosity…) with exact NIST SP 811 and CODATA 2018 factors.',
    'Temperatures are absolute; gauge pressures are refused. Returns the value, the factor or relation, whether it is exact, and definitions of variant units (cal, Btu, gal).',
  ].join(' '),
  details: [
    'Units are defined as in NIST SP 811 (international foot and pound, standard gravity, standard atmosphere, thermochemical calorie, International Table Btu), with CODATA 2018 for measured ones (dalton).',
    'from_unit and to_unit take common spellings: "°C", "C", "degC", "celsius"; "psia"; "J/mol/K", "J mol-1 K-1", "J/(mol·K)"; "m^3/mol", "cm³/mol"; case is ignored when unambiguous, but MPa is not mPa.',
    `Dimensions and units: ${catalogue}.`,
    'Temperatures are absolute (10 °C = 283.15 K), not differences; below absolute zero is an error. "cal" is the thermochemical calorie (4.184 J), "cal_IT" 4.1868 J; "Btu" the International Table Btu; "gal" the US gallon. Gauge pressures (psig, barg) are refused: give absolute pressure.',
    'Returns value {value, unit, method, source}, input {value, unit} as understood, dimension, si_unit, factor (when purely multiplicative), relation (e.g. "°F = 1.8·°C + 32"), exact (true when both units are exactly defined), and definitions of the units where variants exist.',
    'Units of different dimensions (bar to K) are an error (incompatible_units) naming both dimensions; an unknown unit is an error (unsupported_unit) suggesting close spellings and listing the accepted units.',
  ],
  inputSchema,
  outputSchema,
  example: { value: 1, from_unit: 'atm', to_unit: 'kPa' },
  run({ value, from_unit, to_unit }) {
    const c = convert(value, from_unit, to_unit);
    const from = findUnit(from_unit);
    const to = findUnit(to_unit);
    const multiplicative = c.offset === undefined;
    const relation = multiplicative
      ? `1 ${c.from} = ${c.factor} ${c.to}`
      : `${c.to} = ${c.factor === 1 ? '' : `${c.factor}·`}${c.from} ${c.offset! < 0 ? '−' : '+'} ${Math.abs(c.offset!)}`;
    const definitions = [from, to].filter((u, i, all) => u.note && all.indexOf(u) === i).map((u) => u.note!);
    const measured = [from, to].filter((u) => !u.exact);
    return {
      value: {
        value: c.value,
        unit: c.to,
        method: c.exact
          ? `exact conversion through ${SI_UNITS[c.dimension]} from the units' definitions`
          : `conversion through ${SI_UNITS[c.dimension]}; ${measured.map((u) => u.symbol).join(', ')} is a measured unit`,
        source: measured.length > 0 ? `${UNITS_SOURCE}; ${CODATA_2018_SOURCE}` : UNITS_SOURCE,
      },
      input: { value, unit: c.from },
      dimension: c.dimension,
      si_unit: SI_UNITS[c.dimension],
      ...(multiplicative ? { factor: c.factor } : {}),
      relation,
      exact: c.exact,
      ...(definitions.length > 0 ? { definitions } : {}),
      ...(measured.length > 0
        ? {
            warnings: measured.map(
              (u) =>
                `${u.symbol} is defined through a measured constant (CODATA 2018), so the factor is not exact: it carries that constant's uncertainty.`,
            ),
          }
        : {}),
    };
  },
});
