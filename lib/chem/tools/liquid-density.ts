/**
 * service_liquid_density: the saturated liquid density and molar volume of a pure compound at a
 * temperature. Reference equations and measured-data fits answer first, estimates only as labelled fallbacks,
 * each over its range:
 * 0. the fluid's reference equation of state (../helmholtz/): ρ′ by phase equilibrium, triple point to Tc;
 * 1. ChemSep's DIPPR-105/106 fit to measured densities (../chemsep-layer.ts), over the range of its data;
 * 2. the Rackett equation with a Spencer–Danner ZRA: the compound's own, or one fitted to its measured
 *    density on record (../liquid-density.ts), over the saturated liquid (rackettLowerBound to Tc);
 * 3. the Rackett equation with the critical compressibility Zc, flagged with its measured error, likewise.
 * The shared chain rule (../method-chain.ts) picks among them: of 0–2 the first whose range holds T, else
 * one a little beyond its range with a warning; then 3 the same way; else out_of_range naming every range.
 * Where the data has a measured liquid density inside the answer's range, the method is compared with it there.
 */

import { chemsepEntry, type LayerCorrelation } from '../chemsep-layer.ts';
import type { Compound } from '../compounds.ts';
import type { ValidRange } from '../correlations.ts';
import type { ReferenceFluid } from '../helmholtz/fluid-file.ts';
import { referenceFluidByCas, referenceMethod } from '../helmholtz/fluids.ts';
import { saturationAtTemperature } from '../helmholtz/state.ts';
import {
  massDensityFromMolarVolume,
  RACKETT_SOURCE,
  rackettLowerBound,
  rackettMolarVolume,
} from '../liquid-density.ts';
import { findCompound } from '../lookup.ts';
import { type ChainMethod, celsiusHint, chooseMethod, type Span, temperatureReach } from '../method-chain.ts';
import { type PrecisionClass, toMethodPrecision } from '../precision.ts';
import { defineTool, type JsonSchema, ToolError } from '../tool.ts';
import { answerSchema, objectOf, QUANTITY } from './answer-schema.ts';
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

interface LiquidDensityArgs {
  compound_name: string;
  temperature: number;
  temperature_unit?: string;
}

interface ReferencePoint {
  measured: { value: number; unit: 'kg/m3'; temperature: SimpleValue; source: string };
  /** The answer's method at the measurement's temperature. */
  estimated: SimpleValue;
  deviation: SimpleValue;
}

interface LiquidDensityResult {
  compound: CompoundSummary;
  temperature: SimpleValue;
  liquid_density: ComputedValue;
  /** From the same method as liquid_density, which names it. */
  molar_volume: SimpleValue;
  reference_point?: ReferencePoint;
}

/** Beyond this deviation (%) from the measured reference density, the answer carries a warning. */
const REFERENCE_DEVIATION_WARNING = 5;

/**
 * The error of Rackett-with-Zc, measured (lib/chem/tools/liquid-density.test.ts recomputes it): against
 * ChemSep's DIPPR liquid-density fits, at the middle of each fit's range and at 0.7·Tc, over every
 * catalogue compound with Tc, Pc, Zc and a ChemSep fit; hydrogen-bonding = has an O–H or N–H.
 */
export const RACKETT_ZC_ERROR = {
  other: { compounds: 177, median: 1.7, p95: 11 },
  hydrogenBonding: { compounds: 23, median: 3.3, p95: 19 },
};

const BAR = 1e5;
const fmt = (x: number) => String(+x.toPrecision(6));
const inside = (span: Span, t: number) => t >= span.min && t <= span.max;

/** One way to the density: kg/m3 at T (K), with what it is and where it holds. */
interface DensityModel extends ChainMethod {
  method: string;
  source: string;
  /** Reference equations keep 6 digits; DIPPR fits and Rackett are correlations (../precision.ts). */
  precision: PrecisionClass;
  /** Where the method holds; outside it the value is extrapolated (a little) or another method answers. */
  range: ValidRange;
  caveats: string[];
  /** True when the model was fitted to the measured density on record (comparing with it would be circular). */
  fittedToMeasurement?: boolean;
  density(t: number): number;
}

function referenceModel(fluid: ReferenceFluid): DensityModel {
  // Not at Tc itself, where liquid and vapour merge and the solver cannot separate them.
  const range = { min: fluid.tripleTemperature, max: fluid.critical.temperature * (1 - 1e-4), unit: 'K' as const };
  return {
    name: `the reference equation of state for ${fluid.name}`,
    method: `${referenceMethod(fluid)}: saturated-liquid density ρ′ by phase equilibrium`,
    source: fluid.citation,
    precision: 'referenceEquation',
    range,
    // No liquid–vapour equilibrium below the triple point: the equation cannot be extrapolated there.
    reach: range,
    caveats: [],
    density: (t) => saturationAtTemperature(fluid, t).liquidDensity * fluid.molarMass,
  };
}

function chemsepModel(fit: LayerCorrelation, molarMass: number): DensityModel {
  return {
    name: `ChemSep's DIPPR-${fit.equation.form} fit`,
    method: `${fit.method}; ρ = Y·M with M = ${fmt(molarMass * 1000)} g/mol`,
    source: fit.source,
    precision: 'correlation',
    range: fit.range,
    reach: temperatureReach(fit.range),
    caveats: [],
    // kmol/m3 × kg/mol × 1000 mol/kmol
    density: (t) => fit.value(t) * molarMass * 1000,
  };
}

interface Critical {
  tc: number;
  pc: number;
  sources: string;
}

function rackettModel(
  compound: Compound,
  critical: Critical,
  molarMass: number,
  z: number,
  label: string,
  source: string,
  caveats: string[],
  fittedToMeasurement = false,
): DensityModel | undefined {
  const lower = rackettLowerBound(compound);
  if (lower === undefined || lower >= critical.tc) return undefined;
  const range = { min: lower, max: critical.tc, unit: 'K' as const };
  return {
    name: label.replace(/^Rackett/, 'the Rackett equation'),
    method: `${label}: V = (R·Tc/Pc)·Z^(1 + (1 − T/Tc)^(2/7)), Tc = ${critical.tc} K, Pc = ${fmt(critical.pc / BAR)} bar, Z = ${fmt(z)}`,
    source: `${RACKETT_SOURCE}; Tc, Pc: ${critical.sources}; Z: ${source}`,
    precision: 'correlation',
    range,
    // Defined up to Tc only.
    reach: temperatureReach(range, { min: 0, max: critical.tc }),
    caveats,
    fittedToMeasurement,
    density: (t) => massDensityFromMolarVolume(rackettMolarVolume(critical.tc, critical.pc, z, t), molarMass),
  };
}

/** ZRA from one measured density ρ (kg/m3) at T: Z = (V·Pc/(R·Tc))^(1/(1 + (1 − T/Tc)^(2/7))), V = M/ρ. */
function zraFromDensity(critical: Critical, molarMass: number, density: number, t: number): number {
  const v = molarMass / density;
  const unit = rackettMolarVolume(critical.tc, critical.pc, 1, t); // R·Tc/Pc
  return (v / unit) ** (1 / (1 + (1 - t / critical.tc) ** (2 / 7)));
}

/** The density models for a compound, best first (see the header), each with its range and reach. */
export function densityModels(compound: Compound): DensityModel[] {
  const p = compound.properties;
  const molarMass = p.molecular_weight!.value / 1000;
  const models: DensityModel[] = [];
  const add = (model: DensityModel | undefined) => model && models.push(model);
  const fluid = referenceFluidByCas(compound.cas);
  if (fluid) add(referenceModel(fluid));
  const fit = chemsepEntry(compound.cas)?.correlations.liquid_density;
  if (fit) add(chemsepModel(fit, molarMass));
  if (p.critical_temperature === undefined || p.critical_pressure === undefined) return models;
  const critical: Critical = {
    tc: p.critical_temperature.value,
    pc: p.critical_pressure.value * BAR,
    sources: [...new Set([p.critical_temperature.source, p.critical_pressure.source])].join('; '),
  };
  const zra = p.rackett_compressibility;
  const measured = p.liquid_density;
  if (zra) {
    add(rackettModel(compound, critical, molarMass, zra.value, 'Rackett (Spencer–Danner ZRA)', zra.source, []));
  } else if (measured?.temperature && measured.temperature.value < critical.tc) {
    const z = zraFromDensity(critical, molarMass, measured.value, measured.temperature.value);
    add(
      rackettModel(
        compound,
        critical,
        molarMass,
        z,
        `Rackett with ZRA fitted to the measured density ${measured.value} kg/m3 at ${measured.temperature.value} K`,
        `fitted here to ${measured.source}`,
        [
          `ZRA was fitted to the one measured density on record (${measured.value} kg/m3 at ${measured.temperature.value} K): exact there, less certain far from that temperature.`,
        ],
        true,
      ),
    );
  }
  const zc = p.critical_compressibility;
  if (zc) {
    const { other, hydrogenBonding } = RACKETT_ZC_ERROR;
    const estimate = rackettModel(compound, critical, molarMass, zc.value, 'Rackett with Zc (estimate)', zc.source, [
      `Estimated: no liquid-density fit or Rackett parameter ZRA is on record for ${compound.name}, so the Rackett equation uses the critical compressibility Zc. Measured against ChemSep's fits to measured densities, this deviates by a median ${other.median} % (95th percentile ${other.p95} %) for ordinary liquids and a median ${hydrogenBonding.median} % (95th percentile ${hydrogenBonding.p95} %) for hydrogen-bonding ones (alcohols, acids, glycols, amines, water).`,
    ]);
    if (estimate) add({ ...estimate, estimate: true });
  }
  return models;
}

function missingData(compound: Compound): ToolError {
  const p = compound.properties;
  const missing = [
    p.critical_temperature === undefined && 'critical temperature',
    p.critical_pressure === undefined && 'critical pressure',
    p.rackett_compressibility === undefined &&
      p.critical_compressibility === undefined &&
      'Rackett parameter ZRA or critical compressibility Zc',
    rackettLowerBound(compound) === undefined &&
      'melting point or normal boiling point (the lower end of the Rackett equation’s range)',
  ].filter(Boolean);
  return new ToolError(
    'missing_data',
    `No liquid-density fit is on record for ${compound.name}, and the Rackett equation needs its ${missing.join(', ')}, not on record.`,
    { compound: compound.name, missing },
  );
}

/** A model's density; a solver that cannot reach it (RangeError) is no_solution, never a crash. */
function densityOrNoSolution(model: DensityModel, t: number): number {
  try {
    return model.density(t);
  } catch (error) {
    if (error instanceof RangeError) throw new ToolError('no_solution', `${error.message}.`);
    throw error;
  }
}

/** Saturated liquid molar volume (m3/mol) and density (kg/m3) of a compound at t (K), with method and warnings. */
export function liquidDensityOf(compound: Compound, t: number): Omit<LiquidDensityResult, 'compound' | 'temperature'> {
  const tc = compound.properties.critical_temperature?.value;
  if (tc !== undefined && t >= tc) {
    throw new ToolError(
      'out_of_range',
      `${fmt(t)} K is at or above the critical temperature of ${compound.name} (${tc} K): there is no liquid there.`,
      { temperature: t, critical_temperature: tc },
    );
  }
  const models = densityModels(compound);
  if (models.length === 0) throw missingData(compound);
  const chosen = chooseMethod(models, [t], {
    quantity: 'temperature',
    unit: 'K',
    what: `the saturated-liquid density of ${compound.name}`,
    hint: celsiusHint,
  });
  const model = chosen.method;
  const molarMass = compound.properties.molecular_weight!.value / 1000;
  const warnings = [...model.caveats, ...chosen.warnings];
  const tm = compound.properties.melting_point?.value;
  if (tm !== undefined && t < tm) {
    warnings.push(
      `${fmt(t)} K is below the melting point (${tm} K): the stable phase is the solid; the value is the subcooled liquid's.`,
    );
  }
  const how = { method: model.method, source: model.source, valid_range: model.range, precision: model.precision };

  let reference_point: ReferencePoint | undefined;
  const measured = compound.properties.liquid_density;
  const tMeasured = measured?.temperature?.value;
  // Compared only where the method holds: an extrapolated comparison would judge the extrapolation, not the method.
  if (measured && tMeasured !== undefined && !model.fittedToMeasurement && inside(model.range, tMeasured)) {
    const at = densityOrNoSolution(model, tMeasured);
    const deviation = (100 * (at - measured.value)) / measured.value;
    reference_point = {
      measured: {
        value: measured.value,
        unit: 'kg/m3',
        temperature: { value: tMeasured, unit: 'K' },
        source: measured.source,
      },
      estimated: { value: toMethodPrecision(at, model.precision), unit: 'kg/m3' },
      // A derived ratio: 4 digits, like reduced temperatures.
      deviation: { value: toMethodPrecision(deviation, 'correlation'), unit: '%' },
    };
    if (Math.abs(deviation) > REFERENCE_DEVIATION_WARNING) {
      warnings.push(
        `At ${tMeasured} K this method is ${fmt(deviation)}% off the measured density (${measured.value} kg/m3): expect errors of that size here too.`,
      );
    }
  }

  const rho = densityOrNoSolution(model, t);
  return {
    liquid_density: computedValue(rho, 'kg/m3', how, warnings),
    molar_volume: { value: toMethodPrecision(molarMass / rho, model.precision), unit: 'm3/mol' },
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
      description: 'Saturated-liquid temperature, in temperature_unit; below Tc.',
    },
    temperature_unit: TEMPERATURE_UNIT_ARGUMENT,
  },
  required: ['compound_name', 'temperature'],
  additionalProperties: false,
};

const outputSchema = answerSchema(
  {
    compound: COMPOUND_SCHEMA,
    temperature: QUANTITY,
    liquid_density: QUANTITY,
    molar_volume: QUANTITY,
    reference_point: objectOf({ measured: QUANTITY, estimated: QUANTITY, deviation: QUANTITY }),
  },
  ['reference_point'],
);

export const liquidDensityTool = defineTool<LiquidDensityArgs, LiquidDensityResult>({
  name: 'service_liquid_density',
  title: 'Saturated liquid density',
  description: [
    'Saturated-liquid density (kg/m3) and molar volume (m3/mol) of a pure compound below Tc (temperature_unit: K default, °C, °F, R),',
    "by the first method holding T: the reference equation of state, ChemSep's DIPPR fit, Rackett with ZRA, else Rackett with Zc (flagged); out_of_range beyond every range.",
    'reference_point compares with a measured density on record.',
  ].join(' '),
  details: [
    "Methods, in order of preference, each with its range: the fluid's reference equation of state (multiparameter Helmholtz energy; 98 fluids, water's IAPWS-95 and CO2's Span–Wagner among them), ρ′ by phase equilibrium from the triple point to Tc; ChemSep 8.32's DIPPR-105/106 fit to measured densities, over its data's range; the Rackett equation V = (R·Tc/Pc)·Z^(1 + (1 − T/Tc)^(2/7)) with a Spencer–Danner ZRA on record or fitted to the compound's measured density; Rackett with the critical compressibility Zc, an estimate whose warning gives its measured error (median 2–3 %, up to about 20 % for hydrogen-bonding liquids); Rackett, an equation for saturated liquids, holds from the melting point on record (else the normal boiling point) to Tc. The method used is named in every answer.",
    "Each method answers only over its range. Measured methods first: the first whose range holds the temperature answers, else one at most 10 K (or 5 % of its range's width, if less) beyond its range, extrapolated, with a warning naming the range; then Rackett with Zc the same way; farther out, out_of_range, naming every method's range.",
    'Arguments: compound_name (name, synonym, Chinese name, CAS number, a formula held by one compound, SMILES or InChIKey); temperature; temperature_unit (default K; °C, °F, R accepted; `unit` is accepted as an alias). A temperature under 20 K, or below the melting point, read in the default K gets a warning suggesting °C.',
    'Returns the compound, the temperature in K, liquid_density (kg/m3) as {value, unit, method, source, valid_range, warnings}, and molar_volume (m3/mol) from the same method as {value, unit}.',
    "When a measured liquid density is on record at a temperature inside the method's range (and the method was not fitted to it), reference_point gives the measurement with its temperature and source, the same method at that temperature, and their deviation in %; beyond 5 % liquid_density carries a warning. Below the melting point the value is the subcooled liquid's, with a warning.",
    "Errors: compound_not_found (with close names) or ambiguous_compound; unsupported_unit or incompatible_units for a temperature_unit that is not a temperature unit; out_of_range at or above the critical temperature (no liquid there), at or below absolute zero, or beyond every method's range and allowance (the message names each range and, for a low temperature read in K, asks whether °C was meant); missing_data with no fit and no Tc, Pc, Z or melting or boiling point on record; no_solution where the equation gives no density.",
  ],
  argumentAliases: TEMPERATURE_UNIT_ALIASES,
  inputSchema,
  outputSchema,
  example: { compound_name: 'propane', temperature: 272.04 },
  run({ compound_name, temperature, temperature_unit }) {
    const { compound } = findCompound(compound_name);
    const t = readTemperature(temperature, temperature_unit ?? 'K');
    const trap = defaultUnitWarning(
      'temperature',
      temperature,
      temperature_unit,
      compound.properties.melting_point?.value,
    );
    // The trap's warning goes on liquid_density, the value it is about.
    const { warnings, ...densities } = withUnitTrap(trap, () => {
      const d = liquidDensityOf(compound, t);
      return { ...d, warnings: d.liquid_density.warnings };
    });
    return {
      compound: compoundSummary(compound),
      temperature: { value: t, unit: 'K' },
      ...densities,
      liquid_density: { ...densities.liquid_density, warnings: warnings ?? [] },
    };
  },
});
