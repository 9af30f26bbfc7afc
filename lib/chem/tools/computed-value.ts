/**
 * What the single-compound property tools (service_vapor_pressure, service_boiling_point,
 * service_liquid_density, service_ideal_gas_thermo) share: the compound and unit arguments, reading
 * one quantity into SI, and the shape of a computed value in results:
 * {value, unit, method, source, valid_range?, warnings}.
 */
import type { Compound } from '../compounds.ts';
import type { ValidRange } from '../correlations.ts';
import { MAX_QUERY_LENGTH } from '../lookup.ts';
import { type JsonSchema, ToolError } from '../tool.ts';
import { toSI } from '../units.ts';

export const COMPOUND_NAME_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Compound Name',
  minLength: 1,
  maxLength: MAX_QUERY_LENGTH,
  description:
    'Name, synonym or Chinese name ("ethanol", "n-butane", "乙醇"), CAS number ("64-17-5"), formula held by one compound ("CO2"), SMILES ("CCO") or InChIKey.',
};

export const TEMPERATURE_UNIT_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Unit',
  minLength: 1,
  maxLength: 40,
  default: 'K',
  description: 'Unit of the temperature: K (default), °C (also "C", "degC"), °F ("F", "degF") or R (Rankine).',
};

export const PRESSURE_UNIT_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Unit',
  minLength: 1,
  maxLength: 40,
  default: 'Pa',
  description: 'Unit of the absolute pressure: Pa (default), kPa, MPa, bar, mbar, atm, psi, mmHg, torr.',
};

/** A temperature argument in K; refuses absolute zero (units.ts refuses below it). */
export function readTemperature(value: number, unit: string, argument = 'temperature'): number {
  const t = toSI(value, unit, 'temperature');
  if (!(t > 0))
    throw new ToolError('out_of_range', `${argument} must be above absolute zero; got ${value} ${unit}.`, {
      [argument]: value,
      unit,
    });
  return t;
}

/** An absolute pressure argument in Pa; refuses zero and negative pressures. */
export function readPressure(value: number, unit: string): number {
  const p = toSI(value, unit, 'pressure');
  if (!(p > 0))
    throw new ToolError('out_of_range', `pressure must be a positive absolute pressure; got ${value} ${unit}.`, {
      pressure: value,
      unit,
    });
  return p;
}

/** Below this an absolute pressure in Pa is a near-vacuum: far more often another unit typed without one. */
const IMPLAUSIBLE_PRESSURE_PA = 1000;
/** Below this a temperature in K is one few questions mean: far more often °C typed without a unit. */
const IMPLAUSIBLE_TEMPERATURE_K = 20;

/**
 * The warning for a value read in the default unit (unit argument not given) although it is implausible
 * there, naming the units it more likely meant and how to say so: a pressure under 1 kPa ("60" meant bar or
 * kPa, not Pa), a temperature under 20 K, or under the compound's melting point when that is ≤ 100 K above
 * the value's Celsius reading ("25" meant °C). Undefined when the unit was given or the value is plausible.
 */
export function defaultUnitWarning(
  quantity: 'pressure' | 'temperature',
  value: number,
  unitGiven: string | undefined,
  unitArgument: string,
  meltingPointK?: number,
): string | undefined {
  if (unitGiven !== undefined) return undefined;
  if (quantity === 'pressure') {
    if (!(value < IMPLAUSIBLE_PRESSURE_PA)) return undefined;
    return `${quantity} ${value} was read in the default unit, Pa: under 1 kPa, a near-vacuum. If you meant ${value} bar, kPa or atm, pass ${unitArgument}: "bar" (or "kPa", "atm").`;
  }
  const solid = meltingPointK !== undefined && value < meltingPointK && value <= 100;
  if (!(value < IMPLAUSIBLE_TEMPERATURE_K) && !solid) return undefined;
  const why = solid ? `below the melting point (${meltingPointK} K)` : 'under 20 K';
  return `${quantity} ${value} was read in the default unit, K: ${why}. If you meant ${value} °C, pass ${unitArgument}: "°C".`;
}

/**
 * Runs `compute` with a default-unit warning (defaultUnitWarning): first in the result's warnings, or, when
 * the computation refuses the value (out of range, no solution), appended to the error's message, so the
 * caller learns the likely cause either way.
 */
export function withUnitTrap<T extends { warnings?: string[] }>(trap: string | undefined, compute: () => T): T {
  if (!trap) return compute();
  try {
    const result = compute();
    return { ...result, warnings: [trap, ...(result.warnings ?? [])] };
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(error.code, `${error.message} (${trap})`, error.details);
    throw error;
  }
}

export interface CompoundSummary {
  name: string;
  cas: string;
  formula: string;
}

export const COMPOUND_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The compound the name was read as.',
  properties: {
    name: { type: 'string' },
    cas: { type: 'string' },
    formula: { type: 'string', description: 'Hill formula.' },
  },
  required: ['name', 'cas', 'formula'],
  additionalProperties: false,
};

export function compoundSummary(compound: Compound): CompoundSummary {
  return { name: compound.name, cas: compound.cas, formula: compound.formula };
}

export interface SimpleValue {
  value: number;
  unit: string;
}

export function simpleValueSchema(unit: string, description: string): JsonSchema {
  return {
    type: 'object',
    description,
    properties: { value: { type: 'number' }, unit: { type: 'string', const: unit } },
    required: ['value', 'unit'],
    additionalProperties: false,
  };
}

export interface ComputedValue {
  value: number;
  unit: string;
  method: string;
  source: string;
  valid_range?: ValidRange;
  warnings: string[];
}

const VALID_RANGE_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'Temperatures the method was fitted over or holds for; outside it the value is extrapolated (see warnings).',
  properties: { min: { type: 'number' }, max: { type: 'number' }, unit: { type: 'string', const: 'K' } },
  required: ['min', 'max', 'unit'],
  additionalProperties: false,
};

/** Schema of a ComputedValue in `unit`. */
export function computedValueSchema(unit: string, description: string): JsonSchema {
  return {
    type: 'object',
    description: `${description} Unit: ${unit}.`,
    properties: {
      value: { type: 'number' },
      unit: { type: 'string', const: unit },
      method: {
        type: 'string',
        minLength: 1,
        description: 'The equation or estimation method, with the constants it used.',
      },
      source: { type: 'string', minLength: 1, description: 'Published source of the method and of the data it used.' },
      valid_range: VALID_RANGE_SCHEMA,
      warnings: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Extrapolation, estimated rather than measured, solid region and other caveats; empty when none apply.',
      },
    },
    required: ['value', 'unit', 'method', 'source', 'warnings'],
    additionalProperties: false,
  };
}
