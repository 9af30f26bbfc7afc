/**
 * service_boiling_point: the saturation (boiling) temperature of a pure compound at a pressure, the
 * inverse of service_vapor_pressure with the same choice of method (../saturation.ts): the
 * IAPWS-IF97 backward equation for water, stored Antoine/Wagner equations solved for T, Lee–Kesler
 * solved for T otherwise.
 */
import { findCompound } from '../lookup.ts';
import { boilingPointOf } from '../saturation.ts';
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
  PRESSURE_UNIT_ARGUMENT,
  readPressure,
  type SimpleValue,
  simpleValueSchema,
  withUnitTrap,
} from './computed-value.ts';

export interface BoilingPointArgs {
  compound_name: string;
  pressure: number;
  unit?: string;
}

export interface BoilingPointResult {
  compound: CompoundSummary;
  pressure: SimpleValue;
  boiling_point: ComputedValue;
  boiling_point_celsius: ComputedValue;
}

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_boiling_pointArguments',
  properties: {
    compound_name: COMPOUND_NAME_ARGUMENT,
    pressure: {
      type: 'number',
      title: 'Pressure',
      exclusiveMinimum: 0,
      description: 'Absolute pressure, in unit (default Pa); below the critical pressure.',
    },
    unit: PRESSURE_UNIT_ARGUMENT,
  },
  required: ['compound_name', 'pressure'],
  additionalProperties: false,
};

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    compound: COMPOUND_SCHEMA,
    pressure: simpleValueSchema('Pa', 'The pressure as understood, in Pa.'),
    boiling_point: computedValueSchema('K', 'Saturation (boiling) temperature at the pressure.'),
    boiling_point_celsius: computedValueSchema('°C', 'The same boiling point in °C.'),
  },
  required: ['compound', 'pressure', 'boiling_point', 'boiling_point_celsius'],
  additionalProperties: false,
};

export const boilingPointTool = {
  name: 'service_boiling_point',
  title: 'Boiling point at a pressure',
  description: [
    'Saturation (boiling) temperature of a pure compound at an absolute pressure: the inverse of service_vapor_pressure, with the same choice of method.',
    "Method: for water, the IAPWS-IF97 backward saturation-temperature equation; otherwise the compound's vapour-pressure equations on record (Wagner or Antoine, most accurate first) solved for T, the first whose solution lies in its fitted range;",
    "else the nearest one extrapolated up to 10 K beyond its range; else the Lee–Kesler corresponding-states estimate from Tc, Pc and ω solved for T (Brent's method). Extrapolated and estimated values say so in warnings.",
    'Arguments: compound_name (name, synonym, CAS, formula, SMILES or InChIKey); pressure (absolute, > 0); unit (default Pa; kPa, MPa, bar, mbar, atm, psi, mmHg, torr accepted).',
    'Returns the compound, the pressure in Pa, and boiling_point in K (also boiling_point_celsius), each {value, unit, method, source, valid_range, warnings}.',
    "At or above the critical pressure there is no boiling point (error out_of_range); a boiling point below the melting or triple point is the subcooled liquid's, with a warning.",
  ].join(' '),
  inputSchema,
  outputSchema,
  run({ compound_name, pressure, unit }) {
    const { compound } = findCompound(compound_name);
    const p = readPressure(pressure, unit ?? 'Pa');
    const point = withUnitTrap(defaultUnitWarning('pressure', pressure, unit, 'unit'), () =>
      boilingPointOf(compound, p),
    );
    const { warnings } = point;
    const temperatureIn = (unit: string): ComputedValue => ({
      value: fromSI(point.temperature, unit, 'temperature'),
      unit,
      method: point.method,
      source: point.source,
      ...(point.valid_range ? { valid_range: point.valid_range } : {}),
      warnings,
    });
    return {
      compound: compoundSummary(compound),
      pressure: { value: p, unit: 'Pa' },
      boiling_point: temperatureIn('K'),
      boiling_point_celsius: temperatureIn('°C'),
    };
  },
} satisfies ChemTool<BoilingPointArgs, BoilingPointResult>;
