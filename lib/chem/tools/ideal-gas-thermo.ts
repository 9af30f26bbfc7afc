/**
 * service_ideal_gas_thermo: ideal-gas heat capacity Cp° of a pure compound at a temperature and at a
 * reference temperature, and the enthalpy and entropy changes between them, ΔH° = ∫Cp° dT and
 * ΔS° = ∫Cp°/T dT (at constant pressure). Cp° is the compound's stored polynomial (Poling App. A form,
 * integrated analytically, ../ideal-gas.ts), else ChemSep's DIPPR fit (../chemsep-layer.ts, integrated
 * numerically), else Joback's group-contribution polynomial from its SMILES (../joback.ts), labelled; each
 * over its range, picked by the shared chain rule (../method-chain.ts) with both T and Tref held.
 */

import { chemsepEntry } from '../chemsep-layer.ts';
import type { Compound } from '../compounds.ts';
import { R } from '../constants.ts';
import type { ValidRange } from '../correlations.ts';
import { integrate } from '../dippr.ts';
import type { ReferenceFluid } from '../helmholtz/fluid-file.ts';
import { referenceFluidByCas, referenceMethod } from '../helmholtz/fluids.ts';
import { idealGasProperties } from '../helmholtz/state.ts';
import {
  CP_POLYNOMIAL_SOURCE,
  polynomialEnthalpyChange,
  polynomialEntropyChange,
  polynomialHeatCapacity,
} from '../ideal-gas.ts';
import {
  fragmentJoback,
  JOBACK_CP_RANGE,
  JOBACK_METHOD,
  JOBACK_SOURCE,
  type JobackFragmentation,
  jobackEstimate,
} from '../joback.ts';
import { findCompound } from '../lookup.ts';
import {
  type ChainMethod,
  celsiusHint,
  chooseMethod,
  extrapolationWarning,
  temperatureReach,
} from '../method-chain.ts';
import { NASA7_EQUATIONS, nasa7Enthalpy, nasa7Entropy, nasa7HeatCapacity, nasaPolynomialFor } from '../nasa7.ts';
import { type PrecisionClass, toMethodPrecision } from '../precision.ts';
import { findPseudoPure, pseudoPureSummary } from '../pseudo-pure.ts';
import { defineTool, type JsonSchema, ToolError } from '../tool.ts';
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
} from './computed-value.ts';

interface IdealGasThermoArgs {
  compound_name: string;
  temperature: number;
  reference_temperature?: number;
  temperature_unit?: string;
}

/** Cp° at Tref: the method is heat_capacity's; warnings only when Tref itself is outside its range. */
interface CpAtReference extends SimpleValue {
  warnings?: string[];
}

/** ΔH° or ΔS°: the relation to Cp° as method (heat_capacity names the Cp° method), its source and warnings. */
type Change = Omit<ComputedValue, 'valid_range'>;

interface IdealGasThermoResult {
  compound: CompoundSummary;
  temperature: SimpleValue;
  reference_temperature: SimpleValue;
  heat_capacity: ComputedValue;
  heat_capacity_at_reference: CpAtReference;
  enthalpy_change: Change;
  entropy_change: Change;
}

/** Default reference temperature, K: the standard-state temperature of thermochemical tables. */
const DEFAULT_REFERENCE_TEMPERATURE = 298.15;

/** A Cp°(T) model: the value, its exact or numerical integrals, and where it comes from and holds. */
export interface CpModel extends ChainMethod {
  cp(t: number): number;
  /** ∫ Cp° dT from t1 to t2, J/mol. */
  deltaH(t1: number, t2: number): number;
  /** ∫ Cp°/T dT from t1 to t2, J/(mol·K). */
  deltaS(t1: number, t2: number): number;
  /** How the integrals are done ("analytically", "numerically …"). */
  integration: string;
  method: string;
  source: string;
  range: ValidRange;
  /** Where it may answer, extrapolated (../method-chain.ts). */
  reach: ValidRange;
  /** The class of the Cp° method, which sets the digits of every value from it (../precision.ts). */
  precision: PrecisionClass;
  caveats: string[];
}

/**
 * The error of Joback's Cp°, measured (ideal-gas-thermo.test.ts recomputes it): against the Cp° fits to
 * measured data on record (Poling's polynomials, else ChemSep's), at 298.15 K and 800 K, over every
 * catalogue compound Joback's groups cover and that has such a fit.
 */
export const JOBACK_CP_ERROR = { compounds: 296, median: 1.4, p95: 9.8 };

const fmt = (x: number) => String(+x.toPrecision(6));

function polynomialModel(
  coefficients: number[],
  name: string,
  method: string,
  source: string,
  range: ValidRange,
  precision: PrecisionClass,
  caveats: string[],
): CpModel {
  return {
    cp: (t) => polynomialHeatCapacity(coefficients, t),
    deltaH: (t1, t2) => polynomialEnthalpyChange(coefficients, t1, t2),
    deltaS: (t1, t2) => polynomialEntropyChange(coefficients, t1, t2),
    integration: 'integrated analytically',
    name,
    method,
    source: `${source}; ${CP_POLYNOMIAL_SOURCE}`,
    range,
    reach: { ...temperatureReach(range), unit: 'K' },
    precision,
    caveats,
  };
}

/** The Poling polynomial on record. */
export function storedModel(compound: Compound): CpModel | undefined {
  const stored = compound.correlations?.ideal_gas_cp;
  if (!stored) return undefined;
  const names = stored.coefficients.map((a, i) => `a${i} = ${a}`).join(', ');
  return polynomialModel(
    [...stored.coefficients],
    'the ideal-gas Cp° polynomial on record',
    `Ideal-gas heat-capacity polynomial Cp°/R = a0 + a1·T + a2·T² + a3·T³ + a4·T⁴ (T in K), ${names}`,
    stored.source,
    stored.valid_range,
    'correlation',
    [],
  );
}

/** ChemSep's DIPPR fit, integrated by Gauss–Legendre quadrature. */
export function chemsepModel(compound: Compound): CpModel | undefined {
  const fit = chemsepEntry(compound.cas)?.correlations.ideal_gas_cp;
  if (!fit) return undefined;
  return {
    cp: fit.value,
    deltaH: (t1, t2) => integrate(fit.value, t1, t2),
    deltaS: (t1, t2) => integrate((t) => fit.value(t) / t, t1, t2),
    integration: 'integrated numerically (composite 10-point Gauss–Legendre)',
    name: `ChemSep's DIPPR-${fit.equation.form} fit`,
    method: fit.method,
    source: fit.source,
    range: fit.range,
    reach: { ...temperatureReach(fit.range), unit: 'K' },
    precision: 'correlation',
    caveats: [],
  };
}

/** Joback's group-contribution polynomial from the SMILES, labelled as an estimate. */
async function jobackModel(compound: Compound): Promise<CpModel> {
  let groups: JobackFragmentation;
  try {
    groups = await fragmentJoback(compound.smiles);
  } catch (error) {
    if (error instanceof ToolError) {
      throw new ToolError(
        'missing_data',
        `No ideal-gas heat-capacity fit is on record for ${compound.name}, and Joback's method cannot estimate one from its SMILES ${compound.smiles}: ${error.message}`,
        { compound: compound.name, smiles: compound.smiles },
      );
    }
    throw error;
  }
  const estimate = jobackEstimate(groups.counts, { atomCount: groups.atomCount });
  const cp = estimate.ideal_gas_heat_capacity;
  if (!cp) {
    throw new ToolError(
      'missing_data',
      `No ideal-gas heat-capacity fit is on record for ${compound.name}, and Joback's method cannot estimate one: ${estimate.unavailable.ideal_gas_heat_capacity}.`,
      { compound: compound.name },
    );
  }
  const counted = Object.entries(groups.counts)
    .map(([group, n]) => `${n} × ${group}`)
    .join(', ');
  const model = polynomialModel(
    [cp.a / R, cp.b / R, cp.c / R, cp.d / R],
    `the ${JOBACK_METHOD} estimate`,
    `${JOBACK_METHOD} estimate from the SMILES ${compound.smiles} (groups: ${counted}): Cp° = a + b·T + c·T² + d·T³ J/(mol·K), a = ${fmt(cp.a)}, b = ${fmt(cp.b)}, c = ${fmt(cp.c)}, d = ${fmt(cp.d)}`,
    JOBACK_SOURCE,
    { ...JOBACK_CP_RANGE },
    'groupContribution',
    [
      `Estimated by ${JOBACK_METHOD} from the molecular structure (no ideal-gas Cp° fit to measured data is on record for ${compound.name}). Measured against such fits for ${JOBACK_CP_ERROR.compounds} compounds at 298.15 and 800 K, its error has a median of ${JOBACK_CP_ERROR.median} % and a 95th percentile of ${JOBACK_CP_ERROR.p95} %.`,
      ...groups.warnings,
    ],
  );
  return { ...model, estimate: true };
}

/** The ideal-gas part α⁰ of the compound's reference equation of state, if it has one. */
export function referenceModel(compound: Compound): CpModel | undefined {
  return fluidModel(referenceFluidByCas(compound.cas));
}

/** The ideal-gas part α⁰ of a reference equation of state, over the equation's temperature range. */
function fluidModel(fluid: ReferenceFluid | undefined): CpModel | undefined {
  if (!fluid) return undefined;
  const ideal = idealGasProperties(fluid);
  const range = { min: fluid.tripleTemperature, max: fluid.maxTemperature, unit: 'K' as const };
  return {
    cp: ideal.cp,
    deltaH: (t1, t2) => ideal.enthalpy(t2) - ideal.enthalpy(t1),
    deltaS: (t1, t2) => ideal.entropy(t2) - ideal.entropy(t1),
    integration: 'exact (from the ideal-gas Helmholtz energy α⁰)',
    name: `the ideal-gas part of the reference equation of state for ${fluid.name}`,
    method: `${referenceMethod(fluid)}, its ideal-gas part α⁰: Cp° = R·(1 − τ²·∂²α⁰/∂τ²), H° = R·T·(1 + τ·∂α⁰/∂τ), S° = R·(τ·∂α⁰/∂τ − α⁰) at constant pressure`,
    source: fluid.idealCitation ? `${fluid.citation}; ideal-gas part: ${fluid.idealCitation}` : fluid.citation,
    range,
    reach: { ...temperatureReach(range), unit: 'K' },
    precision: 'referenceEquation',
    caveats: [],
  };
}

/** The NASA-7 polynomials (McBride et al.), with their exact H° and S°. */
export function nasaModel(compound: Compound): CpModel | undefined {
  const fit = nasaPolynomialFor(compound.cas);
  if (!fit) return undefined;
  const range = { min: fit.ranges[0].min, max: fit.ranges[fit.ranges.length - 1].max, unit: 'K' as const };
  return {
    cp: (t) => nasa7HeatCapacity(fit, t),
    deltaH: (t1, t2) => nasa7Enthalpy(fit, t2) - nasa7Enthalpy(fit, t1),
    deltaS: (t1, t2) => nasa7Entropy(fit, t2) - nasa7Entropy(fit, t1),
    integration: 'exact (the polynomials’ own H° and S°)',
    name: `the NASA 7-coefficient polynomials for ${fit.species}`,
    method: `${NASA7_EQUATIONS}; species ${fit.species} (${fit.note}), ranges ${fit.ranges.map((r) => `${r.min}–${r.max} K`).join(', ')}`,
    // The note is the tables' reference code and date for the data behind this species' fit.
    source: `${fit.source}; species ${fit.species}, data reference ${fit.note}`,
    range,
    reach: { ...temperatureReach(range), unit: 'K' },
    precision: 'polynomialFit',
    caveats: [],
  };
}

/** The Cp° fits on record for a compound, in the chain's order. */
function cpFitsOf(compound: Compound): CpModel[] {
  return [referenceModel(compound), nasaModel(compound), storedModel(compound), chemsepModel(compound)].filter(
    (m): m is CpModel => m !== undefined,
  );
}

/** Every Cp° method of a compound's chain, in order, with Joback's estimate last where its groups cover the molecule. */
export async function cpMethodsOf(compound: Compound): Promise<CpModel[]> {
  const fits = cpFitsOf(compound);
  try {
    return [...fits, await jobackModel(compound)];
  } catch (error) {
    if (error instanceof ToolError && error.code === 'missing_data') return fits;
    throw error;
  }
}

/**
 * The compound's Cp° model for temperatures t1 and t2, both held by one method: by the chain rule
 * (../method-chain.ts) over its reference equation's ideal part, the NASA-7 polynomials, the Poling
 * polynomial on record, ChemSep's fit and Joback's estimate.
 */
export async function cpModelOf(compound: Compound, t1: number, t2: number): Promise<CpModel> {
  const fits = cpFitsOf(compound);
  const inRange = fits.find((m) => [t1, t2].every((t) => t >= m.range.min && t <= m.range.max));
  if (inRange) return inRange;
  // Joback's groups are looked up only now; with no fit on record, a molecule they do not cover is missing_data.
  const methods = fits.length > 0 ? await cpMethodsOf(compound) : [await jobackModel(compound)];
  return chooseMethod(methods, [t1, t2], {
    quantity: 'temperature',
    unit: 'K',
    what: `the ideal-gas Cp° of ${compound.name}`,
    hint: celsiusHint,
  }).method;
}

type Thermo = Pick<
  IdealGasThermoResult,
  'heat_capacity' | 'heat_capacity_at_reference' | 'enthalpy_change' | 'entropy_change'
>;

/**
 * Cp° at t and tRef, ΔH° and ΔS° from tRef to t, for a compound (temperatures in K), at the Cp° method's
 * precision. heat_capacity names the method and its caveats; the changes name their relation to it.
 */
export async function idealGasThermoOf(compound: Compound, t: number, tRef: number): Promise<Thermo> {
  return thermoFrom(await cpModelOf(compound, t, tRef), t, tRef);
}

/** The same from a given Cp° model (air's: its reference equation's ideal part). */
function thermoFrom(model: CpModel, t: number, tRef: number): Thermo {
  const outsideWarning = (x: number) =>
    x < model.range.min || x > model.range.max ? [extrapolationWarning(model, x, 'K')] : [];
  const atT = outsideWarning(t);
  const atRef = outsideWarning(tRef);
  // An integral over an extrapolated stretch is extrapolated too.
  const between = [...new Set([...atRef, ...atT])];
  const change = (value: number, unit: string, relation: string): Change => ({
    value: toMethodPrecision(value, model.precision),
    unit,
    method: `${relation}, ${model.integration}`,
    source: model.source,
    warnings: between,
  });
  const how = { method: model.method, source: model.source, valid_range: model.range, precision: model.precision };
  return {
    heat_capacity: computedValue(model.cp(t), 'J/(mol·K)', how, [...model.caveats, ...atT]),
    heat_capacity_at_reference: {
      value: toMethodPrecision(model.cp(tRef), model.precision),
      unit: 'J/(mol·K)',
      ...(atRef.length > 0 ? { warnings: atRef } : {}),
    },
    enthalpy_change: change(model.deltaH(tRef, t), 'J/mol', 'ΔH° = H°(T) − H°(Tref) = ∫ Cp° dT from Tref to T'),
    entropy_change: change(
      model.deltaS(tRef, t),
      'J/(mol·K)',
      'ΔS° = S°(T) − S°(Tref) = ∫ Cp°/T dT from Tref to T at constant pressure',
    ),
  };
}

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_ideal_gas_thermoArguments',
  properties: {
    compound_name: COMPOUND_NAME_ARGUMENT,
    temperature: {
      type: 'number',
      title: 'Temperature',
      description: 'T, in temperature_unit.',
    },
    reference_temperature: {
      type: 'number',
      title: 'Reference Temperature',
      // No schema default: it would be read in temperature_unit, and 298.15 °C is not 298.15 K.
      description: `Tref, in temperature_unit; default ${DEFAULT_REFERENCE_TEMPERATURE} K.`,
    },
    temperature_unit: { ...TEMPERATURE_UNIT_ARGUMENT, description: 'For both: K, °C, °F or R.' },
  },
  required: ['compound_name', 'temperature'],
  additionalProperties: false,
};

const outputSchema = answerSchema({
  compound: COMPOUND_SCHEMA,
  temperature: QUANTITY,
  reference_temperature: QUANTITY,
  heat_capacity: QUANTITY,
  heat_capacity_at_reference: QUANTITY,
  enthalpy_change: QUANTITY,
  entropy_change: QUANTITY,
});

export const idealGasThermoTool = defineTool<IdealGasThermoArgs, Promise<IdealGasThermoResult>>({
  name: 'service_ideal_gas_thermo',
  title: 'Ideal-gas heat capacity, enthalpy and entropy changes',
  description: [
    'Ideal-gas Cp° of a pure compound at T and at Tref (reference_temperature, default 298.15 K), and ΔH° = ∫Cp° dT, ΔS° = ∫Cp°/T dT from Tref to T (temperature_unit: K default, °C, °F, R).',
    "Cp° from the reference equation of state's ideal part, NASA 7 polynomials or stored/ChemSep fits, else a Joback estimate (flagged).",
    'Units J/(mol·K), J/mol.',
  ].join(' '),
  details: [
    "Methods, in order of preference, each with its range: the ideal-gas part α⁰ of the fluid's reference equation of state (exact H° and S°; triple point to the equation's Tmax); the NASA 7-coefficient polynomials (McBride, Gordon & Reno 1993; exact H° and S°; their fitted range); the compound's ideal-gas Cp° polynomial on record (Cp°/R = a0 + a1·T + … + a4·T⁴, Poling et al. App. A, integrated analytically; its range); ChemSep 8.32's DIPPR fit to measured data (integrated numerically; its range); the Joback–Reid group-contribution polynomial estimated from the SMILES (273–1000 K), flagged as an estimate with its measured error.",
    "Both T and Tref must be held by one method. Fits first: the first whose range holds both answers, else one at most 10 K (or 5 % of its range's width, if less) beyond its range at either, extrapolated, with a warning naming the range; then Joback the same way; farther out, out_of_range, naming every method's range.",
    'Arguments: compound_name (name, synonym, Chinese name, CAS number, a formula held by one compound, SMILES or InChIKey); temperature; reference_temperature (default 298.15 K, whatever the unit); temperature_unit for both (default K; °C, °F, R accepted; `unit` is accepted as an alias). A temperature under 20 K read in the default K gets a warning suggesting °C.',
    "Returns the compound, T and Tref in K; heat_capacity (J/(mol·K)) as {value, unit, method, source, valid_range, warnings}; heat_capacity_at_reference (J/(mol·K)) from the same method, with warnings only when Tref is outside the method's range; enthalpy_change (J/mol) and entropy_change (J/(mol·K)), each with its relation to Cp° and how it was integrated as method, its source and warnings. Just outside the method's range the values are extrapolated, with a warning.",
    'Air ("air") answers from the ideal part of its pseudo-pure reference equation (Lemmon et al. 2000), with its composition in compound.composition; other mixtures are is_mixture.',
    "Errors: compound_not_found (with close names) or ambiguous_compound; unsupported_unit or incompatible_units for a temperature_unit that is not a temperature unit; out_of_range for a temperature at or below absolute zero, or for T or Tref beyond every method's range and allowance (the message names each range); missing_data only when no fit is on record and Joback's groups do not cover the molecule.",
  ],
  argumentAliases: TEMPERATURE_UNIT_ALIASES,
  inputSchema,
  outputSchema,
  example: { compound_name: 'nitrogen', temperature: 500 },
  async run({ compound_name, temperature, reference_temperature, temperature_unit }) {
    const air = findPseudoPure(compound_name);
    const compound = air ? undefined : findCompound(compound_name).compound;
    const unit = temperature_unit ?? 'K';
    const t = readTemperature(temperature, unit);
    const tRef =
      reference_temperature === undefined
        ? DEFAULT_REFERENCE_TEMPERATURE
        : readTemperature(reference_temperature, unit, 'reference_temperature');
    const thermo = air ? thermoFrom(fluidModel(air.fluid)!, t, tRef) : await idealGasThermoOf(compound!, t, tRef);
    const trap = defaultUnitWarning('temperature', temperature, temperature_unit);
    return {
      compound: air ? pseudoPureSummary(air) : compoundSummary(compound!),
      temperature: { value: t, unit: 'K' },
      reference_temperature: { value: tRef, unit: 'K' },
      ...thermo,
      ...(trap
        ? { heat_capacity: { ...thermo.heat_capacity, warnings: [trap, ...thermo.heat_capacity.warnings] } }
        : {}),
    };
  },
});
