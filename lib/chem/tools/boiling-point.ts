/**
 * service_boiling_point: the saturation (boiling) temperature of a pure compound at a pressure, the
 * inverse of service_vapor_pressure with the same choice of method (../saturation.ts): a reference
 * equation of state or the IAPWS-IF97 backward equation for water, stored Wagner/Antoine equations or
 * ChemSep's fit solved for T, Lee–Kesler solved for T otherwise.
 */
import { findCompound } from '../lookup.ts';
import { type PrecisionClass, roundTo, SIGNIFICANT_DIGITS, toMethodPrecision } from '../precision.ts';
import { boilingPointOf } from '../saturation.ts';
import { defineTool, type JsonSchema } from '../tool.ts';
import { answerSchema, QUANTITY } from './answer-schema.ts';
import {
  COMPOUND_NAME_ARGUMENT,
  COMPOUND_SCHEMA,
  type CompoundSummary,
  type ComputedValue,
  compoundSummary,
  computedValue,
  defaultUnitWarning,
  PRESSURE_UNIT_ALIASES,
  PRESSURE_UNIT_ARGUMENT,
  readPressure,
  type SimpleValue,
  withUnitTrap,
} from './computed-value.ts';

interface BoilingPointArgs {
  compound_name: string;
  pressure: number;
  pressure_unit?: string;
}

interface BoilingPointResult {
  compound: CompoundSummary;
  pressure: SimpleValue;
  boiling_point: ComputedValue;
  /** The same temperature in °C: method, source and warnings are on boiling_point. */
  boiling_point_celsius: SimpleValue;
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
      description: 'Absolute pressure, in pressure_unit; below Pc.',
    },
    pressure_unit: PRESSURE_UNIT_ARGUMENT,
  },
  required: ['compound_name', 'pressure'],
  additionalProperties: false,
};

const outputSchema = answerSchema({
  compound: COMPOUND_SCHEMA,
  pressure: QUANTITY,
  boiling_point: QUANTITY,
  boiling_point_celsius: QUANTITY,
});

/**
 * A temperature (K) in °C, to the decimal places its value in K keeps at the method's precision: 373.124 K
 * is 99.974 °C, not 99.9743 (more than the method knows) nor 99.97399999999999 (binary noise).
 */
function celsiusOf(kelvin: number, precision: PrecisionClass): number {
  const decimals = SIGNIFICANT_DIGITS[precision] - 1 - Math.floor(Math.log10(kelvin));
  return roundTo(kelvin - 273.15, Math.max(decimals, 0));
}

export const boilingPointTool = defineTool<BoilingPointArgs, BoilingPointResult>({
  name: 'service_boiling_point',
  title: 'Boiling point at a pressure',
  description: [
    'Boiling (saturation) temperature of a pure compound at an absolute pressure (pressure_unit: Pa default, kPa, bar, atm, …).',
    'The inverse of service_vapor_pressure, with the same methods (reference equation of state, stored or ChemSep fits, else Lee–Kesler).',
    'Returns boiling_point in K and °C, with method, source and warnings. None at or above Pc.',
  ].join(' '),
  details: [
    "Methods, in order of preference (the same as service_vapor_pressure, read the other way): the fluid's reference equation of state (multiparameter Helmholtz energy; 98 fluids), saturation by phase equilibrium solved for T; for water without it, the IAPWS-IF97 backward saturation-temperature equation (region 4, 611.213 Pa to 22.064 MPa); the compound's vapour-pressure equations on record (Wagner or Antoine, most accurate first, then ChemSep 8.32's DIPPR-101 fit) solved for T; the Lee–Kesler corresponding-states estimate from Tc, Pc and ω solved for T (Brent's method).",
    "Each method holds over the pressures its curve spans on its temperature range. Measured methods first: the first whose pressure range holds the pressure answers, else one whose curve reaches it at most 10 K (or 5 % of its temperature range's width, if less) beyond its range, extrapolated, with a warning naming the range; then Lee–Kesler the same way; farther out, out_of_range, naming every method's range. Extrapolated and estimated values say so in warnings.",
    'Arguments: compound_name (name, synonym, Chinese name, CAS number, a formula held by one compound, SMILES or InChIKey); pressure (absolute, > 0); pressure_unit (default Pa; kPa, MPa, bar, mbar, atm, psi, mmHg, torr accepted; gauge units are refused; `unit` is accepted as an alias). A pressure under 1 kPa read in the default Pa gets a warning suggesting bar, kPa or atm.',
    'Returns the compound, the pressure in Pa, and boiling_point in K as {value, unit, method, source, valid_range, warnings}; boiling_point_celsius gives the same temperature in °C as {value, unit}, to the same decimal places.',
    "A boiling point below the melting or triple point is the subcooled liquid's, with a warning.",
    "Errors: compound_not_found (with close names) or ambiguous_compound; unsupported_unit or incompatible_units for a pressure_unit that is not an absolute pressure unit; out_of_range at or above the critical pressure (no boiling point there), for a pressure ≤ 0, or beyond every method's range and allowance (the message names each range and, for a pressure that would fit in bar or kPa, asks whether that was meant); missing_data with no equation on record and no Tc, Pc or ω for Lee–Kesler; no_solution where no equation reaches the pressure.",
  ],
  argumentAliases: PRESSURE_UNIT_ALIASES,
  inputSchema,
  outputSchema,
  example: { compound_name: 'water', pressure: 1, pressure_unit: 'atm' },
  run({ compound_name, pressure, pressure_unit }) {
    const { compound } = findCompound(compound_name);
    const p = readPressure(pressure, pressure_unit ?? 'Pa');
    const trap = defaultUnitWarning('pressure', pressure, pressure_unit);
    const point = withUnitTrap(trap, () => boilingPointOf(compound, p));
    const kelvin = toMethodPrecision(point.temperature, point.precision);
    return {
      compound: compoundSummary(compound),
      pressure: { value: p, unit: 'Pa' },
      boiling_point: computedValue(kelvin, 'K', point, point.warnings),
      boiling_point_celsius: { value: celsiusOf(kelvin, point.precision), unit: '°C' },
    };
  },
});
