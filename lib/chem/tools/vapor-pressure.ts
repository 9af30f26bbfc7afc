/**
 * service_vapor_pressure: the vapour pressure of a pure compound's liquid at a temperature. The
 * choice of method (a reference equation of state or IAPWS-IF97 for water, the compound's stored
 * Wagner/Antoine equations or ChemSep's fit, Lee–Kesler otherwise) is ../saturation.ts, shared with
 * service_boiling_point.
 */
import { findCompound } from '../lookup.ts';
import { toMethodPrecision } from '../precision.ts';
import { type SaturationPoint, vaporPressureOf } from '../saturation.ts';
import { defineTool, type JsonSchema } from '../tool.ts';
import { fromSI } from '../units.ts';
import { answerSchema, QUANTITY } from './answer-schema.ts';
import {
  COMPOUND_NAME_ARGUMENT,
  COMPOUND_SCHEMA,
  type CompoundSummary,
  type ComputedValue,
  compoundSummary,
  computedValue,
  defaultUnitWarning,
  readTemperature,
  type SimpleValue,
  TEMPERATURE_UNIT_ALIASES,
  TEMPERATURE_UNIT_ARGUMENT,
  withUnitTrap,
} from './computed-value.ts';

interface VaporPressureArgs {
  compound_name: string;
  temperature: number;
  temperature_unit?: string;
}

interface VaporPressureResult {
  compound: CompoundSummary;
  temperature: SimpleValue;
  vapor_pressure: ComputedValue;
  /** The same pressure in kPa and bar: method, source and warnings are on vapor_pressure. */
  vapor_pressure_kpa: SimpleValue;
  vapor_pressure_bar: SimpleValue;
}

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_vapor_pressureArguments',
  properties: {
    compound_name: COMPOUND_NAME_ARGUMENT,
    temperature: {
      type: 'number',
      title: 'Temperature',
      description: 'Liquid temperature, in temperature_unit; below Tc.',
    },
    temperature_unit: TEMPERATURE_UNIT_ARGUMENT,
  },
  required: ['compound_name', 'temperature'],
  additionalProperties: false,
};

const outputSchema = answerSchema({
  compound: COMPOUND_SCHEMA,
  temperature: QUANTITY,
  vapor_pressure: QUANTITY,
  vapor_pressure_kpa: QUANTITY,
  vapor_pressure_bar: QUANTITY,
});

/** The saturation point's pressure in `unit`, at its method's precision. */
function pressureIn(point: SaturationPoint, unit: string): SimpleValue {
  return { value: toMethodPrecision(fromSI(point.pressure, unit, 'pressure'), point.precision), unit };
}

export const vaporPressureTool = defineTool<VaporPressureArgs, VaporPressureResult>({
  name: 'service_vapor_pressure',
  title: 'Vapour pressure of a pure liquid',
  description: [
    'Vapour pressure of a pure liquid at a temperature (temperature_unit: K default, °C, °F, R).',
    "Method, first whose range holds T: the fluid's reference equation of state; a stored Wagner/Antoine or ChemSep fit; else Lee–Kesler (flagged); out_of_range beyond every range.",
    'Returns vapor_pressure in Pa, kPa and bar, with method, source and warnings. None at or above Tc.',
  ].join(' '),
  details: [
    "Methods, in order of preference (the same as service_boiling_point, so the two are inverses), each with its range: the fluid's reference equation of state (multiparameter Helmholtz energy; 98 fluids), saturation by phase equilibrium from the triple point to the critical point; for water without it, the IAPWS-IF97 saturation-pressure equation (region 4, 273.15–647.096 K); the vapour-pressure equations on record for the compound (Wagner or Antoine, most accurate first, then ChemSep 8.32's DIPPR-101 fit), each over its fitted range; the Lee–Kesler corresponding-states estimate from Tc, Pc and the acentric factor, over 0.3·Tc to Tc (Lee & Kesler 1975).",
    "Each method answers only over its range. Measured methods first: the first whose range holds the temperature answers, else one at most 10 K (or 5 % of its range's width, if less) beyond its range, extrapolated, with a warning naming the range; then Lee–Kesler the same way; farther out, out_of_range, naming every method's range. Extrapolated and estimated values say so in warnings, as does a reference equation or fit that misses the normal boiling point on record.",
    'Arguments: compound_name (name, synonym, Chinese name, CAS number, a formula held by one compound, SMILES or InChIKey); temperature; temperature_unit (default K; °C, °F, R accepted; `unit` is accepted as an alias). A temperature under 20 K, or below the melting point, read in the default K gets a warning suggesting °C.',
    'Returns the compound, the temperature in K, and vapor_pressure in Pa as {value, unit, method, source, valid_range, warnings}; vapor_pressure_kpa and vapor_pressure_bar give the same value in kPa and bar as {value, unit}.',
    "Below the melting or triple point the value is the subcooled liquid's, with a warning.",
    "Errors: compound_not_found (with close names) or ambiguous_compound; unsupported_unit or incompatible_units for a temperature_unit that is not a temperature unit; out_of_range at or above the critical temperature (no vapour pressure there), at or below absolute zero, or beyond every method's range and allowance (the message names each range and, for a low temperature read in K, asks whether °C was meant); missing_data with no equation on record and no Tc, Pc or ω for Lee–Kesler; no_solution where the equation gives no finite value.",
  ],
  argumentAliases: TEMPERATURE_UNIT_ALIASES,
  inputSchema,
  outputSchema,
  example: { compound_name: 'water', temperature: 100, temperature_unit: '°C' },
  run({ compound_name, temperature, temperature_unit }) {
    const { compound } = findCompound(compound_name);
    const t = readTemperature(temperature, temperature_unit ?? 'K');
    const trap = defaultUnitWarning(
      'temperature',
      temperature,
      temperature_unit,
      compound.properties.melting_point?.value,
    );
    const point = withUnitTrap(trap, () => vaporPressureOf(compound, t));
    return {
      compound: compoundSummary(compound),
      temperature: { value: t, unit: 'K' },
      vapor_pressure: computedValue(point.pressure, 'Pa', point, point.warnings),
      vapor_pressure_kpa: pressureIn(point, 'kPa'),
      vapor_pressure_bar: pressureIn(point, 'bar'),
    };
  },
});
