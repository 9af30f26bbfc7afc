/**
 * service_liquid_density: the saturated liquid density and molar volume of a pure compound at a
 * temperature by the Rackett equation (../liquid-density.ts), with the Spencer–Danner parameter ZRA
 * where the data has one and the critical compressibility Zc otherwise (flagged). Where the data has
 * a measured liquid density, the estimate at that temperature is compared with it.
 *
 * COSTALD (Hankinson–Thomson 1979) needs a characteristic volume V* and ω_SRK per compound; the
 * data carries neither, so it is not offered.
 */
import type { Compound } from '../compounds.ts';
import { massDensityFromMolarVolume, RACKETT_SOURCE, rackettMolarVolume } from '../liquid-density.ts';
import { findCompound } from '../lookup.ts';
import { type ChemTool, type JsonSchema, ToolError } from '../tool.ts';
import {
  COMPOUND_NAME_ARGUMENT,
  COMPOUND_SCHEMA,
  type CompoundSummary,
  type ComputedValue,
  compoundSummary,
  computedValueSchema,
  readTemperature,
  type SimpleValue,
  simpleValueSchema,
  TEMPERATURE_UNIT_ARGUMENT,
} from './computed-value.ts';

export interface LiquidDensityArgs {
  compound_name: string;
  temperature: number;
  unit?: string;
}

export interface ReferencePoint {
  measured: { value: number; unit: 'kg/m3'; temperature: SimpleValue; source: string };
  estimated: ComputedValue;
  deviation: SimpleValue;
}

export interface LiquidDensityResult {
  compound: CompoundSummary;
  temperature: SimpleValue;
  liquid_density: ComputedValue;
  molar_volume: ComputedValue;
  reference_point?: ReferencePoint;
}

/** Beyond this deviation (%) from the measured reference density, the estimate carries a warning. */
const REFERENCE_DEVIATION_WARNING = 5;

const BAR = 1e5;
const fmt = (x: number) => String(+x.toPrecision(6));

interface RackettInputs {
  tc: number;
  pc: number;
  z: number;
  method: string;
  source: string;
  caveats: string[];
}

function rackettInputs(compound: Compound): RackettInputs {
  const p = compound.properties;
  const zra = p.rackett_compressibility;
  const zc = p.critical_compressibility;
  const missing = [
    p.critical_temperature === undefined && 'critical temperature',
    p.critical_pressure === undefined && 'critical pressure',
    zra === undefined && zc === undefined && 'Rackett parameter ZRA or critical compressibility Zc',
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new ToolError(
      'missing_data',
      `The Rackett equation for ${compound.name} needs its ${missing.join(', ')}, not on record.`,
      { compound: compound.name, missing },
    );
  }
  const tc = p.critical_temperature!.value;
  const pc = p.critical_pressure!.value;
  const z = (zra ?? zc)!;
  const form = `V = (R·Tc/Pc)·Z^(1 + (1 − T/Tc)^(2/7)), Tc = ${tc} K, Pc = ${pc} bar`;
  const sources = [...new Set([p.critical_temperature!.source, p.critical_pressure!.source, z.source])].join('; ');
  return {
    tc,
    pc: pc * BAR,
    z: z.value,
    method: zra
      ? `Rackett (Spencer–Danner ZRA): ${form}, ZRA = ${zra.value}`
      : `Rackett with Zc: ${form}, Zc = ${zc!.value}`,
    source: `${RACKETT_SOURCE}; Tc, Pc, ${zra ? 'ZRA' : 'Zc'}: ${sources}`,
    caveats: zra
      ? []
      : [
          `No Rackett parameter ZRA on record for ${compound.name}, so the critical compressibility Zc is used: less accurate (errors of several percent are common, and volumes of polar liquids with Zc below 0.22 come out too small).`,
        ],
  };
}

/** Saturated liquid molar volume (m3/mol) and density (kg/m3) of a compound at t (K), with method and warnings. */
export function liquidDensityOf(compound: Compound, t: number): Omit<LiquidDensityResult, 'compound' | 'temperature'> {
  const inputs = rackettInputs(compound);
  if (t >= inputs.tc) {
    throw new ToolError(
      'out_of_range',
      `${fmt(t)} K is at or above the critical temperature of ${compound.name} (${inputs.tc} K): there is no liquid there.`,
      {
        temperature: t,
        critical_temperature: inputs.tc,
      },
    );
  }
  const molarMass = compound.properties.molecular_weight!.value / 1000;
  const tm = compound.properties.melting_point?.value;
  const valid_range = tm !== undefined ? { valid_range: { min: tm, max: inputs.tc, unit: 'K' as const } } : {};
  const estimate = (temperature: number) => {
    const v = rackettMolarVolume(inputs.tc, inputs.pc, inputs.z, temperature);
    return { v, rho: massDensityFromMolarVolume(v, molarMass) };
  };

  const warnings = [...inputs.caveats];
  if (tm !== undefined && t < tm) {
    warnings.push(
      `${fmt(t)} K is below the melting point (${tm} K): the stable phase is the solid; the value is the Rackett equation extrapolated to the subcooled liquid.`,
    );
  }

  let reference_point: ReferencePoint | undefined;
  const measured = compound.properties.liquid_density;
  if (measured?.temperature && measured.temperature.value < inputs.tc) {
    const at = estimate(measured.temperature.value).rho;
    const deviation = (100 * (at - measured.value)) / measured.value;
    reference_point = {
      measured: {
        value: measured.value,
        unit: 'kg/m3',
        temperature: { value: measured.temperature.value, unit: 'K' },
        source: measured.source,
      },
      estimated: {
        value: at,
        unit: 'kg/m3',
        method: inputs.method,
        source: inputs.source,
        ...valid_range,
        warnings: [...inputs.caveats],
      },
      deviation: { value: deviation, unit: '%' },
    };
    if (Math.abs(deviation) > REFERENCE_DEVIATION_WARNING) {
      warnings.push(
        `At ${measured.temperature.value} K the estimate is ${fmt(deviation)}% off the measured density (${measured.value} kg/m3): expect errors of that size here too.`,
      );
    }
  }

  const { v, rho } = estimate(t);
  const common = { method: inputs.method, source: inputs.source, ...valid_range, warnings };
  return {
    liquid_density: { value: rho, unit: 'kg/m3', ...common },
    molar_volume: { value: v, unit: 'm3/mol', ...common },
    ...(reference_point ? { reference_point } : {}),
  };
}

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_liquid_densityArguments',
  properties: {
    compound_name: COMPOUND_NAME_ARGUMENT,
    temperature: {
      type: 'number',
      title: 'Temperature',
      description: 'Temperature of the saturated liquid, in unit (default K); below the critical temperature.',
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
    liquid_density: computedValueSchema('kg/m3', 'Density of the saturated liquid.'),
    molar_volume: computedValueSchema('m3/mol', 'Molar volume of the saturated liquid.'),
    reference_point: {
      type: 'object',
      description:
        'The measured liquid density on record, the estimate at its temperature, and their deviation: how far to trust the estimate.',
      properties: {
        measured: {
          type: 'object',
          properties: {
            value: { type: 'number' },
            unit: { type: 'string', const: 'kg/m3' },
            temperature: simpleValueSchema('K', 'The temperature of the measurement.'),
            source: { type: 'string', minLength: 1 },
          },
          required: ['value', 'unit', 'temperature', 'source'],
          additionalProperties: false,
        },
        estimated: computedValueSchema('kg/m3', 'The same method at the measurement temperature.'),
        deviation: simpleValueSchema('%', '100·(estimated − measured)/measured.'),
      },
      required: ['measured', 'estimated', 'deviation'],
      additionalProperties: false,
    },
  },
  required: ['compound', 'temperature', 'liquid_density', 'molar_volume'],
  additionalProperties: false,
};

export const liquidDensityTool = {
  name: 'service_liquid_density',
  title: 'Saturated liquid density',
  description: [
    "Density and molar volume of a pure compound's saturated liquid at a temperature, by the Rackett equation V = (R·Tc/Pc)·Z^(1 + (1 − T/Tc)^(2/7)).",
    'Method: "Rackett (Spencer–Danner ZRA)" when the compound has a fitted Rackett parameter ZRA on record, else "Rackett with Zc" (the critical compressibility; less accurate, flagged in warnings). COSTALD is not offered: the data carries no COSTALD parameters.',
    'Arguments: compound_name (name, synonym, CAS, formula, SMILES or InChIKey); temperature; unit (default K; °C, °F, R accepted).',
    'Returns the compound, the temperature in K, liquid_density (kg/m3) and molar_volume (m3/mol), each {value, unit, method, source, valid_range (melting point to Tc), warnings};',
    'and, when a measured liquid density is on record, reference_point: the measurement with its temperature and source, the estimate at that temperature, and the deviation in %.',
    'At or above the critical temperature there is no liquid (error out_of_range); missing Tc, Pc or Z is error missing_data.',
  ].join(' '),
  inputSchema,
  outputSchema,
  run({ compound_name, temperature, unit }) {
    const { compound } = findCompound(compound_name);
    const t = readTemperature(temperature, unit ?? 'K');
    return {
      compound: compoundSummary(compound),
      temperature: { value: t, unit: 'K' },
      ...liquidDensityOf(compound, t),
    };
  },
} satisfies ChemTool<LiquidDensityArgs, LiquidDensityResult>;
