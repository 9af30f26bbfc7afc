/**
 * service_vapor_pressure: the vapour pressure of a pure compound's liquid at a temperature. The
 * choice of method (IAPWS-IF97 for water, the compound's stored Antoine/Wagner equations, Lee–Kesler
 * otherwise) is ../saturation.ts, shared with service_boiling_point.
 */
import { findCompound } from '../lookup.ts';
import { type SaturationPoint, vaporPressureOf } from '../saturation.ts';
import type { ChemTool, JsonSchema } from '../tool.ts';
import { fromSI } from '../units.ts';
import {
  COMPOUND_NAME_ARGUMENT,
  COMPOUND_SCHEMA,
  type CompoundSummary,
  type ComputedValue,
  compoundSummary,
  computedValueSchema,
  defaultUnitWarning,
  readTemperature,
  type SimpleValue,
  simpleValueSchema,
  TEMPERATURE_UNIT_ARGUMENT,
  withUnitTrap,
} from './computed-value.ts';

export interface VaporPressureArgs {
  compound_name: string;
  temperature: number;
  unit?: string;
}

export interface VaporPressureResult {
  compound: CompoundSummary;
  temperature: SimpleValue;
  vapor_pressure: ComputedValue;
  vapor_pressure_kpa: ComputedValue;
  vapor_pressure_bar: ComputedValue;
}

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_vapor_pressureArguments',
  properties: {
    compound_name: COMPOUND_NAME_ARGUMENT,
    temperature: {
      type: 'number',
      title: 'Temperature',
      description: 'Temperature of the liquid, in unit (default K); below the critical temperature.',
    },
    unit: TEMPERATURE_UNIT_ARGUMENT,
  },
  required: ['compound_name', 'temperature'],
  additionalProperties: false,
};

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    compound: COMPOUND_SCHEMA,
    temperature: simpleValueSchema('K', 'The temperature as understood, in K.'),
    vapor_pressure: computedValueSchema('Pa', 'Vapour (saturation) pressure of the liquid.'),
    vapor_pressure_kpa: computedValueSchema('kPa', 'The same vapour pressure in kPa.'),
    vapor_pressure_bar: computedValueSchema('bar', 'The same vapour pressure in bar.'),
  },
  required: ['compound', 'temperature', 'vapor_pressure', 'vapor_pressure_kpa', 'vapor_pressure_bar'],
  additionalProperties: false,
};

/** The saturation point's pressure in `unit`, with its method, source, range and warnings. */
function pressureIn(point: SaturationPoint, unit: string): ComputedValue {
  return {
    value: fromSI(point.pressure, unit, 'pressure'),
    unit,
    method: point.method,
    source: point.source,
    ...(point.valid_range ? { valid_range: point.valid_range } : {}),
    warnings: point.warnings,
  };
}

export const vaporPressureTool = {
  name: 'service_vapor_pressure',
  title: 'Vapour pressure of a pure liquid',
  description: [
    'Vapour (saturation) pressure of a pure compound at a temperature.',
    'Method: for water, the IAPWS-IF97 saturation equation; otherwise the first vapour-pressure equation on record for the compound (Wagner or Antoine, most accurate first) whose fitted range holds the temperature;',
    'outside every range, the nearest equation extrapolated up to 10 K beyond its range, and farther out the Lee–Kesler corresponding-states estimate from Tc, Pc and the acentric factor; with no equation on record, Lee–Kesler. Extrapolated and estimated values say so in warnings.',
    'Arguments: compound_name (name, synonym, CAS, formula, SMILES or InChIKey); temperature; unit (default K; °C, °F, R accepted).',
    'Returns the compound, the temperature in K, and vapor_pressure in Pa (also vapor_pressure_kpa, vapor_pressure_bar), each {value, unit, method, source, valid_range, warnings}.',
    "At or above the critical temperature there is no vapour pressure (error out_of_range); below the melting or triple point the value is the subcooled liquid's, with a warning.",
  ].join(' '),
  inputSchema,
  outputSchema,
  run({ compound_name, temperature, unit }) {
    const { compound } = findCompound(compound_name);
    const t = readTemperature(temperature, unit ?? 'K');
    const trap = defaultUnitWarning('temperature', temperature, unit, 'unit', compound.properties.melting_point?.value);
    const point = withUnitTrap(trap, () => vaporPressureOf(compound, t));
    return {
      compound: compoundSummary(compound),
      temperature: { value: t, unit: 'K' },
      vapor_pressure: pressureIn(point, 'Pa'),
      vapor_pressure_kpa: pressureIn(point, 'kPa'),
      vapor_pressure_bar: pressureIn(point, 'bar'),
    };
  },
} satisfies ChemTool<VaporPressureArgs, VaporPressureResult>;
