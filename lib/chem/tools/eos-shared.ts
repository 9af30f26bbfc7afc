/**
 * What service_eos_state and service_mixture_properties share: the eos and unit arguments, reading
 * temperature and pressure into SI, the critical constants an equation needs from a compound, and
 * the schema and shape of one root of the cubic in the result.
 */
import type { Compound } from '../compounds.ts';
import {
  type CriticalConstants,
  CUBIC_EOS_IDS,
  type CubicEos,
  type CubicEosId,
  GENERIC_CUBIC_SOURCE,
  massDensity,
} from '../eos.ts';
import type { PropertyKey } from '../properties.ts';
import { type JsonSchema, ToolError } from '../tool.ts';
import { toSI } from '../units.ts';

export const EOS_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Eos',
  enum: [...CUBIC_EOS_IDS],
  default: 'peng_robinson',
  description:
    'Cubic equation of state: "peng_robinson" (Peng–Robinson 1976, default), "srk" (Soave–Redlich–Kwong 1972), "redlich_kwong" (Redlich–Kwong 1949) or "van_der_waals" (van der Waals 1873, qualitative only).',
};

export const TEMPERATURE_UNIT_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Temperature Unit',
  minLength: 1,
  maxLength: 40,
  default: 'K',
  description: 'Unit of temperature: K (default), °C (also "C", "degC"), °F ("F", "degF") or R (Rankine).',
};

export const PRESSURE_UNIT_ARGUMENT: JsonSchema = {
  type: 'string',
  title: 'Pressure Unit',
  minLength: 1,
  maxLength: 40,
  default: 'Pa',
  description: 'Unit of pressure, absolute: Pa (default), kPa, MPa, bar, mbar, atm, psi, mmHg, torr.',
};

export interface Conditions {
  /** K */
  temperature: number;
  /** Pa */
  pressure: number;
}

/** Pa. Cubic equations are fitted to fluid states up to a few hundred bar; 1 GPa (10 kbar) is far beyond any use of them. */
export const MAX_PRESSURE = 1e9;

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

export const CONDITIONS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The temperature and pressure as understood, in SI (pressure also in bar).',
  properties: {
    temperature: simpleQuantitySchema('K'),
    pressure: simpleQuantitySchema('Pa'),
    pressure_bar: simpleQuantitySchema('bar'),
  },
  required: ['temperature', 'pressure', 'pressure_bar'],
  additionalProperties: false,
};

export function conditionsResult({ temperature, pressure }: Conditions) {
  return {
    temperature: { value: temperature, unit: 'K' },
    pressure: { value: pressure, unit: 'Pa' },
    pressure_bar: { value: pressure / 1e5, unit: 'bar' },
  };
}

export function simpleQuantitySchema(unit: string, description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties: { value: { type: 'number' }, unit: { type: 'string', const: unit } },
    required: ['value', 'unit'],
    additionalProperties: false,
  };
}

/** A computed value: {value, unit, method, source} plus warnings where they apply. */
export function quantitySchema(unit: string, description: string): JsonSchema {
  return {
    type: 'object',
    description: `${description} Unit: ${unit === '' ? 'dimensionless' : unit}.`,
    properties: {
      value: { type: 'number' },
      unit: { type: 'string', const: unit },
      method: { type: 'string', minLength: 1 },
      source: { type: 'string', minLength: 1 },
      warnings: { type: 'array', items: { type: 'string' } },
    },
    required: ['value', 'unit', 'method', 'source'],
    additionalProperties: false,
  };
}

export interface Quantity {
  value: number;
  unit: string;
  method: string;
  source: string;
  warnings?: string[];
}

/** A value taken from the compound data, as used (pressures converted to Pa). */
export const INPUT_VALUE_SCHEMA = (unit: string, description: string): JsonSchema => ({
  type: 'object',
  description: `${description} Unit: ${unit === '' ? 'dimensionless' : unit}.`,
  properties: {
    value: { type: 'number' },
    unit: { type: 'string', const: unit },
    source: { type: 'string', minLength: 1 },
  },
  required: ['value', 'unit', 'source'],
  additionalProperties: false,
});

export function eosId(eos: string | undefined): CubicEosId {
  return (eos ?? 'peng_robinson') as CubicEosId;
}

export const EOS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The equation of state used and its published source.',
  properties: {
    id: { type: 'string', enum: [...CUBIC_EOS_IDS] },
    name: { type: 'string' },
    source: { type: 'string' },
    form: { type: 'string', description: 'The generic cubic form and the constants of this equation.' },
    form_source: { type: 'string' },
  },
  required: ['id', 'name', 'source', 'form', 'form_source'],
  additionalProperties: false,
};

export function eosResult(eos: CubicEos) {
  const constants = `ε = ${round(eos.epsilon)}, σ = ${round(eos.sigma)}, Ω = ${round(eos.omega)}, Ψ = ${round(eos.psi)}`;
  const alpha = {
    van_der_waals: 'α = 1',
    redlich_kwong: 'α = Tr^(−1/2)',
    srk: 'α = [1 + (0.480 + 1.574ω − 0.176ω²)(1 − Tr^(1/2))]²',
    peng_robinson: 'α = [1 + (0.37464 + 1.54226ω − 0.26992ω²)(1 − Tr^(1/2))]²',
  }[eos.id];
  return {
    id: eos.id,
    name: eos.name,
    source: eos.source,
    form: `P = RT/(V − b) − a(T)/((V + εb)(V + σb)), a = Ψ·α·R²Tc²/Pc, b = Ω·R·Tc/Pc; ${constants}; ${alpha}`,
    form_source: GENERIC_CUBIC_SOURCE,
  };
}

const round = (x: number) => Number(x.toPrecision(6));

export interface CompoundInputs {
  constants: CriticalConstants;
  /** The values used, with their sources, pressure in Pa. */
  used: {
    critical_temperature: { value: number; unit: 'K'; source: string };
    critical_pressure: { value: number; unit: 'Pa'; source: string };
    acentric_factor?: { value: number; unit: ''; source: string };
  };
  /** Warnings the data attaches to the values used. */
  warnings: string[];
}

export const COMPOUND_INPUTS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The critical constants the equation used, from the compound data, with their sources.',
  properties: {
    critical_temperature: INPUT_VALUE_SCHEMA('K', 'Critical temperature Tc.'),
    critical_pressure: INPUT_VALUE_SCHEMA('Pa', 'Critical pressure Pc.'),
    acentric_factor: INPUT_VALUE_SCHEMA(
      '',
      'Pitzer acentric factor ω (used by SRK and Peng–Robinson, and by the mixture acentric factor).',
    ),
  },
  required: ['critical_temperature', 'critical_pressure'],
  additionalProperties: false,
};

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
      ...(w ? { acentric_factor: { value: w.value, unit: '' as const, source: w.source } } : {}),
    },
    warnings,
  };
}

export function eosSource(eos: CubicEos): string {
  return `${eos.source}; ${GENERIC_CUBIC_SOURCE}`;
}

/** Molar volume and mass density of a root, as result quantities. */
export function volumeAndDensity(eos: CubicEos, z: number, molarVolume: number, molarMass: number, which: string) {
  const source = eosSource(eos);
  return {
    compressibility_factor: { value: z, unit: '', method: `${eos.name}: ${which} real root of the cubic in Z`, source },
    molar_volume: { value: molarVolume, unit: 'm3/mol', method: 'V = Z·R·T/P', source },
    density: {
      value: massDensity(molarVolume, molarMass),
      unit: 'kg/m3',
      method: 'ρ = M/V with M from the formula',
      source,
    },
  };
}

export const VOLUME_AND_DENSITY_SCHEMA: Record<string, JsonSchema> = {
  compressibility_factor: quantitySchema('', 'Compressibility factor Z = P·V/(R·T) of this root.'),
  molar_volume: quantitySchema('m3/mol', 'Molar volume V.'),
  density: quantitySchema('kg/m3', 'Mass density.'),
};
