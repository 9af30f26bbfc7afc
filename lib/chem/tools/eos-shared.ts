/**
 * What service_eos_state and service_mixture_properties share: the eos argument, reading temperature and
 * pressure into SI, the critical constants an equation needs from a compound, the output-schema parts
 * both answers have, and how a computed value is built (rounded to what its method supports).
 */
import type { Compound } from '../compounds.ts';
import {
  type CriticalConstants,
  CUBIC_EOS,
  CUBIC_EOS_IDS,
  type CubicEos,
  type CubicEosId,
  GENERIC_CUBIC_SOURCE,
  massDensity,
} from '../eos.ts';
import { type PrecisionClass, toMethodPrecision } from '../precision.ts';
import type { PropertyKey } from '../properties.ts';
import { type JsonSchema, ToolError } from '../tool.ts';
import { toSI } from '../units.ts';
import { objectOf, QUANTITY, STRING } from './answer-schema.ts';

export const EOS_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Eos',
  enum: [...CUBIC_EOS_IDS],
  default: 'peng_robinson',
  description: 'Cubic equation of state.',
};

/** The cubic equations as the docs describe them (the eos argument's values). */
export const CUBIC_EOS_DETAILS =
  '"peng_robinson" (Peng–Robinson 1976), "srk" (Soave–Redlich–Kwong 1972), "redlich_kwong" (Redlich–Kwong 1949) or "van_der_waals" (van der Waals 1873, qualitative only), all in the generic form of Smith, Van Ness & Abbott Table 3.1.';

export interface Conditions {
  /** K */
  temperature: number;
  /** Pa */
  pressure: number;
}

/** Pa. Cubic equations are fitted to fluid states up to a few hundred bar; 1 GPa (10 kbar) is far beyond any use of them. */
const MAX_PRESSURE = 1e9;

/** Temperature and pressure in SI; refuses 0 K, non-positive pressures and pressures above MAX_PRESSURE, naming the value given. */
export function readConditions(
  temperature: number,
  temperatureUnit: string,
  pressure: number,
  pressureUnit: string,
): Conditions {
  const t = toSI(temperature, temperatureUnit, 'temperature');
  if (!(t > 0))
    throw new ToolError(
      'out_of_range',
      `temperature must be above absolute zero; got ${temperature} ${temperatureUnit}.`,
      { temperature, temperature_unit: temperatureUnit },
    );
  const p = toSI(pressure, pressureUnit, 'pressure');
  if (!(p > 0))
    throw new ToolError(
      'out_of_range',
      `pressure must be a positive absolute pressure; got ${pressure} ${pressureUnit}.`,
      { pressure, pressure_unit: pressureUnit },
    );
  if (p > MAX_PRESSURE) {
    throw new ToolError(
      'out_of_range',
      `pressure ${pressure} ${pressureUnit} is above 1 GPa (10 000 bar), far outside the range of cubic equations of state.`,
      {
        pressure,
        pressure_unit: pressureUnit,
        max: { value: MAX_PRESSURE, unit: 'Pa' },
      },
    );
  }
  return { temperature: t, pressure: p };
}

/**
 * φ = exp(ln φ), refusing values beyond floating-point range (ln φ > 700), which the equations reach
 * only at conditions where they mean nothing (e.g. a fluid compressed to kilobars at a few kelvin).
 */
export function fugacityCoefficient(lnPhi: number, what: string): number {
  const phi = Math.exp(lnPhi);
  if (!Number.isFinite(phi) || phi > 1e300) {
    throw new ToolError(
      'out_of_range',
      `The equation of state gives ln φ = ${lnPhi.toPrecision(4)} for ${what}: these conditions are far outside where a cubic equation of state means anything.`,
      {
        ln_fugacity_coefficient: lnPhi,
      },
    );
  }
  return phi;
}

/** A value with its unit only: the caller's conditions, a ratio, the same value in another unit. */
export interface SimpleQuantity {
  value: number;
  unit: string;
}

/** A computed value: {value, unit, method, source} plus warnings or a note where they apply. */
export interface Quantity extends SimpleQuantity {
  method: string;
  source: string;
  note?: string;
  warnings?: string[];
}

/**
 * A computed value, rounded to the significant digits its method supports (lib/chem/precision.ts). Every
 * value these tools compute from an equation or rule is built here, so none escapes the rounding.
 */
export function computed(
  value: number,
  unit: string,
  method: string,
  source: string,
  precision: PrecisionClass,
): Quantity {
  return { value: toMethodPrecision(value, precision), unit, method, source };
}

/** Significant digits of a derived ratio (T/Tc, P/Pc): enough to place a state, no more. */
const RATIO_DIGITS = 4;

/** A dimensionless ratio such as T/Tc, at RATIO_DIGITS. */
export function ratio(value: number): SimpleQuantity {
  return { value: Number.isFinite(value) ? Number(value.toPrecision(RATIO_DIGITS)) : value, unit: '' };
}

/**
 * An object of the named quantities plus the `others` fields (all required unless in `optional`). Each
 * quantity's name is written once, in `required`, instead of twice, which keeps tools/list small; any field
 * not in `others` must be a quantity (so an optional one, like acentric_factor, needs no entry).
 */
export function quantitiesObject(
  quantities: string[],
  others: Record<string, JsonSchema> = {},
  optional: string[] = [],
): JsonSchema {
  return {
    type: 'object',
    ...(Object.keys(others).length ? { properties: others } : {}),
    required: [...Object.keys(others).filter((key) => !optional.includes(key)), ...quantities],
    additionalProperties: QUANTITY,
  };
}

/** The temperature and pressure as understood, in SI. */
export const CONDITIONS_SCHEMA = quantitiesObject(['temperature', 'pressure']);

export function conditionsResult({ temperature, pressure }: Conditions) {
  return {
    temperature: { value: temperature, unit: 'K' },
    pressure: { value: pressure, unit: 'Pa' },
  };
}

/** The compound the name was read as, with the molar mass its densities use. */
export function compoundWithMass(compound: Compound) {
  const { name, cas, formula } = compound;
  return {
    name,
    cas,
    formula,
    molecular_weight: { value: compound.properties.molecular_weight!.value, unit: 'g/mol' },
  };
}

export function eosId(eos: string | undefined): CubicEosId {
  return (eos ?? 'peng_robinson') as CubicEosId;
}

/** The equation of state used: named once per answer, so each value's method gives only its relation. */
export const EOS_SCHEMA: JsonSchema = objectOf({ id: STRING, name: STRING, source: STRING });

export function eosResult(eos: CubicEos) {
  return { id: eos.id, name: eos.name, source: eos.source };
}

/**
 * The equation in the generic cubic form with its constants (Smith, Van Ness & Abbott Table 3.1), for the
 * docs: the same for every answer, so answers name the equation and leave its form here.
 */
function cubicForm(eos: CubicEos): string {
  const round = (x: number) => Number(x.toPrecision(6));
  const constants = `ε = ${round(eos.epsilon)}, σ = ${round(eos.sigma)}, Ω = ${round(eos.omega)}, Ψ = ${round(eos.psi)}`;
  const alpha = {
    van_der_waals: 'α = 1',
    redlich_kwong: 'α = Tr^(−1/2)',
    srk: 'α = [1 + (0.480 + 1.574ω − 0.176ω²)(1 − Tr^(1/2))]²',
    peng_robinson: 'α = [1 + (0.37464 + 1.54226ω − 0.26992ω²)(1 − Tr^(1/2))]²',
  }[eos.id];
  return `${eos.name}: ${constants}; ${alpha}`;
}

/** The generic cubic and every equation's constants, as a docs paragraph. */
export const CUBIC_FORMS_DETAILS = `All cubic equations are P = RT/(V − b) − a(T)/((V + εb)(V + σb)) with a = Ψ·α·R²Tc²/Pc and b = Ω·R·Tc/Pc (${GENERIC_CUBIC_SOURCE}); in Z, with A = aP/(RT)² and B = bP/(RT), the fugacity coefficient is ln φ = Z − 1 − ln(Z − B) − (A/B)·I, I = ln((Z + σB)/(Z + εB))/(σ − ε) (I = B/Z for van der Waals). ${CUBIC_EOS_IDS.map((id) => cubicForm(CUBIC_EOS[id])).join('. ')}.`;

/** A value taken from the compound data, as used (pressures converted to Pa). */
export interface InputValue extends SimpleQuantity {
  source: string;
}

export interface CompoundInputs {
  constants: CriticalConstants;
  /** The values used, with their sources, pressure in Pa. */
  used: {
    critical_temperature: InputValue;
    critical_pressure: InputValue;
    acentric_factor?: InputValue;
  };
  /** Warnings the data attaches to the values used. */
  warnings: string[];
}

/** The critical constants an equation used, with their sources (acentric_factor where used or on record). */
export const COMPOUND_INPUTS_SCHEMA = quantitiesObject(['critical_temperature', 'critical_pressure']);

/**
 * Tc, Pc and (for SRK and Peng–Robinson) ω of a compound; missing_data names what is absent.
 * withAcentric: also report ω, when on record, for an equation that does not need it.
 */
export function compoundInputs(compound: Compound, eos: CubicEos, withAcentric = false): CompoundInputs {
  const needed: PropertyKey[] = [
    'critical_temperature',
    'critical_pressure',
    ...(eos.usesAcentricFactor ? (['acentric_factor'] as const) : []),
  ];
  const missing = needed.filter((key) => compound.properties[key] === undefined);
  if (missing.length > 0) {
    const hint =
      missing.length === 1 && missing[0] === 'acentric_factor'
        ? ' Redlich–Kwong or van der Waals need only Tc and Pc (eos "redlich_kwong" or "van_der_waals").'
        : '';
    throw new ToolError(
      'missing_data',
      `${eos.name} needs ${needed.join(', ')} of ${compound.name}; the data has no ${missing.join(' or ')}.${hint}`,
      {
        compound: compound.name,
        missing,
      },
    );
  }
  const tc = compound.properties.critical_temperature!;
  const pc = compound.properties.critical_pressure!;
  const w = eos.usesAcentricFactor || withAcentric ? compound.properties.acentric_factor : undefined;
  const warnings = needed.flatMap((key) =>
    (compound.properties[key]?.warnings ?? []).map((text) => `${compound.name} ${key}: ${text}`),
  );
  const pcPa = toSI(pc.value, pc.unit, 'pressure');
  return {
    constants: { tc: tc.value, pc: pcPa, ...(w ? { acentric: w.value } : {}) },
    used: {
      critical_temperature: { value: tc.value, unit: 'K', source: tc.source },
      critical_pressure: { value: pcPa, unit: 'Pa', source: pc.source },
      ...(w ? { acentric_factor: { value: w.value, unit: '', source: w.source } } : {}),
    },
    warnings,
  };
}

/**
 * Z, molar volume and mass density of a root of a cubic, at its precision. Their method gives only the
 * relation, their source the equation's paper: the answer's equation_of_state names the equation once.
 */
export function volumeAndDensity(eos: CubicEos, z: number, molarVolume: number, molarMass: number, which: string) {
  const at = (value: number, unit: string, method: string) =>
    computed(value, unit, method, eos.source, 'cubicEquation');
  return {
    compressibility_factor: at(z, '', `${which} real root of the cubic in Z`),
    molar_volume: at(molarVolume, 'm3/mol', 'V = Z·R·T/P'),
    density: at(massDensity(molarVolume, molarMass), 'kg/m3', 'ρ = M/V'),
  };
}
