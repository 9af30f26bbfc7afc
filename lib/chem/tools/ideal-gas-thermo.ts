/**
 * service_ideal_gas_thermo: ideal-gas heat capacity Cp° of a pure compound at a temperature and at a
 * reference temperature, and the enthalpy and entropy changes between them, ΔH° = ∫Cp° dT and
 * ΔS° = ∫Cp°/T dT (at constant pressure). Cp° is the compound's stored polynomial (Poling App. A form,
 * integrated analytically, ../ideal-gas.ts), else ChemSep's DIPPR fit (../chemsep-layer.ts, integrated
 * numerically), else Joback's group-contribution polynomial from its SMILES (../joback.ts), labelled.
 */

import { chemsepEntry } from '../chemsep-layer.ts';
import type { Compound } from '../compounds.ts';
import { R } from '../constants.ts';
import type { ValidRange } from '../correlations.ts';
import { integrate } from '../dippr.ts';
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
import { NASA7_EQUATIONS, nasa7Enthalpy, nasa7Entropy, nasa7HeatCapacity, nasaPolynomialFor } from '../nasa7.ts';
import { type ChemTool, type JsonSchema, ToolError } from '../tool.ts';
import {
  COMPOUND_NAME_ARGUMENT,
  COMPOUND_SCHEMA,
  type CompoundSummary,
  type ComputedValue,
  compoundSummary,
  computedValueSchema,
  defaultUnitWarning,
  readTemperature,
  type SimpleValue,
  simpleValueSchema,
  TEMPERATURE_UNIT_ARGUMENT,
} from './computed-value.ts';

export interface IdealGasThermoArgs {
  compound_name: string;
  temperature: number;
  reference_temperature?: number;
  unit?: string;
}

export interface IdealGasThermoResult {
  compound: CompoundSummary;
  temperature: SimpleValue;
  reference_temperature: SimpleValue;
  heat_capacity: ComputedValue;
  heat_capacity_at_reference: ComputedValue;
  enthalpy_change: ComputedValue;
  entropy_change: ComputedValue;
}

/** Default reference temperature, K: the standard-state temperature of thermochemical tables. */
export const DEFAULT_REFERENCE_TEMPERATURE = 298.15;

/** A Cp°(T) model: the value, its exact or numerical integrals, and where it comes from and holds. */
interface CpModel {
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
  method: string,
  source: string,
  range: ValidRange,
  caveats: string[],
): CpModel {
  return {
    cp: (t) => polynomialHeatCapacity(coefficients, t),
    deltaH: (t1, t2) => polynomialEnthalpyChange(coefficients, t1, t2),
    deltaS: (t1, t2) => polynomialEntropyChange(coefficients, t1, t2),
    integration: 'integrated analytically',
    method,
    source: `${source}; ${CP_POLYNOMIAL_SOURCE}`,
    range,
    caveats,
  };
}

/** The Poling polynomial on record. */
function storedModel(compound: Compound): CpModel | undefined {
  const stored = compound.correlations?.ideal_gas_cp;
  if (!stored) return undefined;
  const names = stored.coefficients.map((a, i) => `a${i} = ${a}`).join(', ');
  return polynomialModel(
    [...stored.coefficients],
    `Ideal-gas heat-capacity polynomial Cp°/R = a0 + a1·T + a2·T² + a3·T³ + a4·T⁴ (T in K), ${names}`,
    stored.source,
    stored.valid_range,
    [],
  );
}

/** ChemSep's DIPPR fit, integrated by Gauss–Legendre quadrature. */
function chemsepModel(compound: Compound): CpModel | undefined {
  const fit = chemsepEntry(compound.cas)?.correlations.ideal_gas_cp;
  if (!fit) return undefined;
  return {
    cp: fit.value,
    deltaH: (t1, t2) => integrate(fit.value, t1, t2),
    deltaS: (t1, t2) => integrate((t) => fit.value(t) / t, t1, t2),
    integration: 'integrated numerically (composite 10-point Gauss–Legendre)',
    method: fit.method,
    source: fit.source,
    range: fit.range,
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
  return polynomialModel(
    [cp.a / R, cp.b / R, cp.c / R, cp.d / R],
    `${JOBACK_METHOD} estimate from the SMILES ${compound.smiles} (groups: ${counted}): Cp° = a + b·T + c·T² + d·T³ J/(mol·K), a = ${fmt(cp.a)}, b = ${fmt(cp.b)}, c = ${fmt(cp.c)}, d = ${fmt(cp.d)}`,
    JOBACK_SOURCE,
    { ...JOBACK_CP_RANGE },
    [
      `Estimated by ${JOBACK_METHOD} from the molecular structure (no ideal-gas Cp° fit to measured data is on record for ${compound.name}). Measured against such fits for ${JOBACK_CP_ERROR.compounds} compounds at 298.15 and 800 K, its error has a median of ${JOBACK_CP_ERROR.median} % and a 95th percentile of ${JOBACK_CP_ERROR.p95} %.`,
      ...groups.warnings,
    ],
  );
}

/** The ideal-gas part α⁰ of the fluid's reference equation of state, over the equation's temperature range. */
function referenceModel(compound: Compound): CpModel | undefined {
  const fluid = referenceFluidByCas(compound.cas);
  if (!fluid) return undefined;
  const ideal = idealGasProperties(fluid);
  return {
    cp: ideal.cp,
    deltaH: (t1, t2) => ideal.enthalpy(t2) - ideal.enthalpy(t1),
    deltaS: (t1, t2) => ideal.entropy(t2) - ideal.entropy(t1),
    integration: 'exact (from the ideal-gas Helmholtz energy α⁰)',
    method: `${referenceMethod(fluid)}, its ideal-gas part α⁰: Cp° = R·(1 − τ²·∂²α⁰/∂τ²), H° = R·T·(1 + τ·∂α⁰/∂τ), S° = R·(τ·∂α⁰/∂τ − α⁰) at constant pressure`,
    source: fluid.idealCitation ? `${fluid.citation}; ideal-gas part: ${fluid.idealCitation}` : fluid.citation,
    range: { min: fluid.tripleTemperature, max: fluid.maxTemperature, unit: 'K' },
    caveats: [],
  };
}

/** The NASA-7 polynomials (McBride et al.), with their exact H° and S°. */
function nasaModel(compound: Compound): CpModel | undefined {
  const fit = nasaPolynomialFor(compound.cas);
  if (!fit) return undefined;
  return {
    cp: (t) => nasa7HeatCapacity(fit, t),
    deltaH: (t1, t2) => nasa7Enthalpy(fit, t2) - nasa7Enthalpy(fit, t1),
    deltaS: (t1, t2) => nasa7Entropy(fit, t2) - nasa7Entropy(fit, t1),
    integration: 'exact (the polynomials’ own H° and S°)',
    method: `${NASA7_EQUATIONS}; species ${fit.species} (${fit.note}), ranges ${fit.ranges.map((r) => `${r.min}–${r.max} K`).join(', ')}`,
    // The note is the tables' reference code and date for the data behind this species' fit.
    source: `${fit.source}; species ${fit.species}, data reference ${fit.note}`,
    range: { min: fit.ranges[0].min, max: fit.ranges[fit.ranges.length - 1].max, unit: 'K' },
    caveats: [],
  };
}

/**
 * The compound's Cp° model for temperatures t1 and t2: the first of its reference equation's ideal part,
 * the NASA-7 polynomials, the Poling polynomial on record and ChemSep's fit whose range holds both; else the first of them
 * (extrapolated, with a warning); else Joback's estimate.
 */
export async function cpModelOf(compound: Compound, t1: number, t2: number): Promise<CpModel> {
  const fits = [referenceModel(compound), nasaModel(compound), storedModel(compound), chemsepModel(compound)].filter(
    (m): m is CpModel => m !== undefined,
  );
  const holds = (m: CpModel, t: number) => t >= m.range.min && t <= m.range.max;
  return fits.find((m) => holds(m, t1) && holds(m, t2)) ?? fits[0] ?? (await jobackModel(compound));
}

function outsideWarning(model: CpModel, t: number): string[] {
  return t < model.range.min || t > model.range.max
    ? [
        `${fmt(t)} K is outside the range the Cp° equation holds for (${model.range.min}–${model.range.max} K); the value is extrapolated.`,
      ]
    : [];
}

/** Cp° at t and tRef, ΔH° and ΔS° from tRef to t, for a compound (temperatures in K). */
export async function idealGasThermoOf(
  compound: Compound,
  t: number,
  tRef: number,
): Promise<
  Pick<IdealGasThermoResult, 'heat_capacity' | 'heat_capacity_at_reference' | 'enthalpy_change' | 'entropy_change'>
> {
  const model = await cpModelOf(compound, t, tRef);
  const { range: valid_range } = model;
  const atT = [...model.caveats, ...outsideWarning(model, t)];
  const atRef = [...model.caveats, ...outsideWarning(model, tRef)];
  const between = [...new Set([...atRef, ...atT])];
  const cpValue = (value: number, warnings: string[]): ComputedValue => ({
    value,
    unit: 'J/(mol·K)',
    method: model.method,
    source: model.source,
    valid_range,
    warnings,
  });
  return {
    heat_capacity: cpValue(model.cp(t), atT),
    heat_capacity_at_reference: cpValue(model.cp(tRef), atRef),
    enthalpy_change: {
      value: model.deltaH(tRef, t),
      unit: 'J/mol',
      method: `ΔH° = H°(T) − H°(Tref) = ∫ Cp° dT from ${fmt(tRef)} K to ${fmt(t)} K, ${model.integration}; Cp°: ${model.method}`,
      source: model.source,
      valid_range,
      warnings: between,
    },
    entropy_change: {
      value: model.deltaS(tRef, t),
      unit: 'J/(mol·K)',
      method: `ΔS° = S°(T) − S°(Tref) = ∫ Cp°/T dT from ${fmt(tRef)} K to ${fmt(t)} K at constant pressure, ${model.integration}; Cp°: ${model.method}`,
      source: model.source,
      valid_range,
      warnings: between,
    },
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
      description: 'Temperature T of the ideal gas, in unit (default K).',
    },
    reference_temperature: {
      type: 'number',
      title: 'Reference Temperature',
      // No schema default: it would be read in `unit`, and 298.15 °C is not 298.15 K.
      description: `Reference temperature Tref the changes are measured from, in unit; when omitted, ${DEFAULT_REFERENCE_TEMPERATURE} K whatever the unit.`,
    },
    unit: {
      ...TEMPERATURE_UNIT_ARGUMENT,
      description: `Unit of temperature and reference_temperature: K (default), °C (also "C", "degC"), °F ("F", "degF") or R (Rankine).`,
    },
  },
  required: ['compound_name', 'temperature'],
  additionalProperties: false,
};

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    compound: COMPOUND_SCHEMA,
    temperature: simpleValueSchema('K', 'T as understood, in K.'),
    reference_temperature: simpleValueSchema('K', 'Tref as understood, in K.'),
    heat_capacity: computedValueSchema('J/(mol·K)', 'Ideal-gas isobaric heat capacity Cp° at T.'),
    heat_capacity_at_reference: computedValueSchema('J/(mol·K)', 'Ideal-gas isobaric heat capacity Cp° at Tref.'),
    enthalpy_change: computedValueSchema('J/mol', 'ΔH° = H°(T) − H°(Tref) of the ideal gas.'),
    entropy_change: computedValueSchema('J/(mol·K)', 'ΔS° = S°(T) − S°(Tref) of the ideal gas at constant pressure.'),
  },
  required: [
    'compound',
    'temperature',
    'reference_temperature',
    'heat_capacity',
    'heat_capacity_at_reference',
    'enthalpy_change',
    'entropy_change',
  ],
  additionalProperties: false,
};

export const idealGasThermoTool = {
  name: 'service_ideal_gas_thermo',
  title: 'Ideal-gas heat capacity, enthalpy and entropy changes',
  description: [
    'Ideal-gas heat capacity Cp° of a pure compound at a temperature T and at a reference temperature Tref, and the changes between them: ΔH° = ∫Cp° dT and ΔS° = ∫Cp°/T dT (at constant pressure), integrated analytically.',
    "Method, first whose range holds both temperatures: the ideal-gas part of the fluid's reference equation of state (exact H° and S°); the NASA 7-coefficient polynomials (McBride, Gordon & Reno 1993; exact H° and S°); the compound's ideal-gas Cp° polynomial on record (Cp°/R = a0 + a1·T + … + a4·T⁴, Poling et al. App. A, integrated analytically); ChemSep 8.32's DIPPR fit to measured data (integrated numerically); else the Joback–Reid group-contribution polynomial estimated from its SMILES, flagged as an estimate with its measured error.",
    'Arguments: compound_name (name, synonym, CAS, formula, SMILES or InChIKey); temperature; reference_temperature (default 298.15 K); unit for both (default K; °C, °F, R accepted).',
    "Returns the compound, T and Tref in K, heat_capacity and heat_capacity_at_reference (J/(mol·K)), enthalpy_change (J/mol) and entropy_change (J/(mol·K)), each {value, unit, method, source, valid_range, warnings}; outside the polynomial's range the values are extrapolated, with a warning.",
    "Fails with missing_data only when no fit is on record and Joback's groups do not cover the molecule.",
  ].join(' '),
  inputSchema,
  outputSchema,
  async run({ compound_name, temperature, reference_temperature, unit }) {
    const { compound } = findCompound(compound_name);
    const u = unit ?? 'K';
    const t = readTemperature(temperature, u);
    const tRef =
      reference_temperature === undefined
        ? DEFAULT_REFERENCE_TEMPERATURE
        : readTemperature(reference_temperature, u, 'reference_temperature');
    const thermo = await idealGasThermoOf(compound, t, tRef);
    const trap = defaultUnitWarning('temperature', temperature, unit, 'unit');
    return {
      compound: compoundSummary(compound),
      temperature: { value: t, unit: 'K' },
      reference_temperature: { value: tRef, unit: 'K' },
      ...thermo,
      ...(trap
        ? { heat_capacity: { ...thermo.heat_capacity, warnings: [trap, ...(thermo.heat_capacity.warnings ?? [])] } }
        : {}),
    };
  },
} satisfies ChemTool<IdealGasThermoArgs, IdealGasThermoResult>;
