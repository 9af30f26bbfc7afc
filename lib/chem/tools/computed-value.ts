/**
 * What the single-compound property tools (service_vapor_pressure, service_boiling_point,
 * service_liquid_density, service_ideal_gas_thermo) share: the compound and unit arguments, reading
 * one quantity into SI, and the shape of a computed value in results:
 * {value, unit, method, source, valid_range?, warnings}, at the precision its method supports.
 */
import type { Compound } from '../compounds.ts';
import type { ValidRange } from '../correlations.ts';
import { MAX_QUERY_LENGTH } from '../lookup.ts';
import { type PrecisionClass, toMethodPrecision } from '../precision.ts';
import { type JsonSchema, ToolError } from '../tool.ts';
import { toSI } from '../units.ts';
import { objectOf, STRING } from './answer-schema.ts';

export const COMPOUND_NAME_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Compound Name',
  maxLength: MAX_QUERY_LENGTH,
  description: 'Name, CAS number, formula, SMILES or InChIKey.',
};

export const TEMPERATURE_UNIT_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Temperature Unit',
  maxLength: 40,
  default: 'K',
  description: 'K, °C, °F or R.',
};

export const PRESSURE_UNIT_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Pressure Unit',
  maxLength: 40,
  default: 'Pa',
  description: 'Pa, kPa, MPa, bar, atm, psi, mmHg or torr.',
};

/**
 * The one naming scheme for unit arguments: `temperature_unit` and `pressure_unit`, whatever else the tool
 * takes. `unit` (the first name on tools with one such argument) and the short spellings agents guess are
 * read as aliases; `unit` only where it cannot mean two things.
 */
export const TEMPERATURE_UNIT_ALIASES = {
  unit: 'temperature_unit',
  temp_unit: 'temperature_unit',
  t_unit: 'temperature_unit',
};
export const PRESSURE_UNIT_ALIASES = { unit: 'pressure_unit', p_unit: 'pressure_unit' };
export const STATE_UNIT_ALIASES = {
  temp_unit: 'temperature_unit',
  t_unit: 'temperature_unit',
  p_unit: 'pressure_unit',
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
 * The argument to set is `<quantity>_unit`, the one name every tool gives it.
 */
export function defaultUnitWarning(
  quantity: 'pressure' | 'temperature',
  value: number,
  unitGiven: string | undefined,
  meltingPointK?: number,
): string | undefined {
  if (unitGiven !== undefined) return undefined;
  const unitArgument = `${quantity}_unit`;
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
 * the computation refuses the value (out of range, no solution), appended to the error's message unless
 * that already suggests the unit, so the caller learns the likely cause either way, once.
 */
export function withUnitTrap<T extends { warnings?: string[] }>(trap: string | undefined, compute: () => T): T {
  if (!trap) return compute();
  try {
    const result = compute();
    return { ...result, warnings: [trap, ...(result.warnings ?? [])] };
  } catch (error) {
    // A refusal that already asks "did you mean …?" (the method chain's unit hint) needs no second telling.
    if (error instanceof ToolError && !/did you mean/.test(error.message))
      throw new ToolError(error.code, `${error.message} (${trap})`, error.details);
    throw error;
  }
}

export interface CompoundSummary {
  name: string;
  cas: string;
  /** Absent for air, a mixture, which has its composition instead. */
  formula?: string;
  composition?: { name: string; mole_fraction: number }[];
}

/**
 * A mixture's composition (air's: [{name, mole_fraction}]), in place of a formula. Only its type: tools/list
 * is loaded into every agent session, and the docs say the rest.
 */
export const COMPOSITION_SCHEMA: JsonSchema = { type: 'array' };

/** The compound the name was read as (air's composition is an extra field, as the docs say). */
export const COMPOUND_SCHEMA: JsonSchema = objectOf({ name: STRING, cas: STRING, formula: STRING });

export function compoundSummary(compound: Compound): CompoundSummary {
  return { name: compound.name, cas: compound.cas, formula: compound.formula };
}

export interface SimpleValue {
  value: number;
  unit: string;
}

export interface ComputedValue {
  value: number;
  unit: string;
  method: string;
  source: string;
  valid_range?: ValidRange;
  warnings: string[];
}

/** How a value was computed: stated once in an answer, on the value it is about. */
interface Computation {
  method: string;
  source: string;
  valid_range?: ValidRange;
  /** The method's class, which sets how many significant digits its values keep (../precision.ts). */
  precision: PrecisionClass;
}

/** A computed value at the precision its method supports, with its method, source, valid range and warnings. */
export function computedValue(value: number, unit: string, how: Computation, warnings: string[]): ComputedValue {
  return {
    value: toMethodPrecision(value, how.precision),
    unit,
    method: how.method,
    source: how.source,
    ...(how.valid_range ? { valid_range: how.valid_range } : {}),
    warnings,
  };
}
