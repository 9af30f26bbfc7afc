/**
 * Where the data layers disagree. For every catalogue compound, each sourced layer that covers a
 * property at a state is evaluated there (only inside its own range), and two layers disagree when their
 * values differ by more than the sum of their uncertainties: then at least one is outside its own.
 *   ideal-gas Cp° at 298.15, 500 and 1000 K: the reference equation's ideal part α⁰, NASA-7, the Poling
 *     polynomial on record, ChemSep's fit;
 *   vapour pressure at 0.6, 0.7 and 0.9 Tc: the reference equation's saturation line, IAPWS-IF97 (water),
 *     the compound's own Wagner/Antoine equations, ChemSep's fit;
 *   saturated-liquid density at the same states: the reference equation, ChemSep's fit (IAPWS-IF97 as
 *     shipped has only its saturation-pressure equation, and the compilation has no density correlation).
 * Each disagreement names the layer the tool's chain answers with there and why. The committed report
 * (data/layer-disagreements.json, `npm run data:layers`) is this module's output; its test recomputes it.
 */
import { chemsepEntry } from './chemsep-layer.ts';
import { allCompounds, type Compound } from './compounds.ts';
import type { VaporPressureCorrelation } from './correlations.ts';
import crosscheck from './data/correlation-crosscheck.json' with { type: 'json' };
import { referenceFluidByCas } from './helmholtz/fluids.ts';
import { saturationAtTemperature } from './helmholtz/state.ts';
import { IF97_SATURATION_TEMPERATURE_RANGE, if97SaturationPressure } from './iapws97.ts';
import { vaporPressureOf } from './saturation.ts';
import { ToolError } from './tool.ts';
import {
  type CpModel,
  chemsepModel,
  cpModelOf,
  nasaModel,
  referenceModel,
  storedModel,
} from './tools/ideal-gas-thermo.ts';
import { liquidDensityOf } from './tools/liquid-density.ts';
import { antoinePressure, wagnerPressure } from './vapor-pressure.ts';

export type ComparedProperty = 'ideal_gas_cp' | 'vapor_pressure' | 'liquid_density';

type LayerId = 'reference_eos' | 'iapws_if97' | 'nasa7' | 'own_correlation' | 'chemsep';

/**
 * Each layer's uncertainty (relative, %) per property, and where it comes from.
 * - Reference equations: their papers state 0.01–0.2 % in p_sat and ρ′ for the best-measured fluids and
 *   up to 0.5 % for the others (e.g. Setzmann & Wagner 1991, methane: ρ within 0.03–0.15 %); CoolProp's
 *   files carry no per-fluid uncertainty, so the upper end, 0.5 %, is used for every fluid and for the
 *   ideal part α⁰ (a fit to Cp° from spectroscopy and statistical mechanics).
 * - IAPWS-IF97's saturation equation is made to reproduce IAPWS-95's; 0.1 % (over 0.6–0.9 Tc the two
 *   agree within it, as this comparison shows for water).
 * - NASA TM-4513, Poling's Appendix A and ChemSep state no uncertainty for the coefficients we ship.
 *   Cp° fits: 0.5 %, above their typical error measured here against the α⁰ of the reference equations
 *   (the report's cp_fits_against_alpha0: medians 0.15–0.31 % at 298.15 and 500 K). Vapour-pressure
 *   fits: 2 %, the margin the chain already allows a ChemSep fit at the normal boiling point
 *   (./saturation.ts). Liquid-density fits: 1 %.
 */
export const LAYER_UNCERTAINTY: Record<LayerId, { percent: Partial<Record<ComparedProperty, number>>; basis: string }> =
  {
    reference_eos: {
      percent: { ideal_gas_cp: 0.5, vapor_pressure: 0.5, liquid_density: 0.5 },
      basis:
        'upper end of what reference-equation papers state for p_sat and ρ′ (e.g. Setzmann & Wagner 1991, methane: ρ within 0.03–0.15 %); CoolProp files carry no per-fluid value',
    },
    iapws_if97: {
      percent: { vapor_pressure: 0.1 },
      basis: "made to reproduce IAPWS-95's saturation line; no separate uncertainty stated",
    },
    nasa7: {
      percent: { ideal_gas_cp: 0.5 },
      basis: 'NASA TM-4513 states no fit error per species: chosen above the fits’ measured median deviation from α⁰',
    },
    own_correlation: {
      percent: { ideal_gas_cp: 0.5, vapor_pressure: 2 },
      basis:
        "Poling et al. App. A states no error for its Cp° polynomials or Wagner/Antoine constants: Cp° as for NASA-7; p_sat 2 %, the chain's own check of a ChemSep fit at Tb",
    },
    chemsep: {
      percent: { ideal_gas_cp: 0.5, vapor_pressure: 2, liquid_density: 1 },
      basis: 'ChemSep 8.32 states no uncertainty for its DIPPR fits: as for the other fits; ρ′ 1 %',
    },
  };

/** Temperatures (K) of the Cp° comparison, and the reduced temperatures of the saturation ones. */
const CP_TEMPERATURES = [298.15, 500, 1000];
const REDUCED_TEMPERATURES = [0.6, 0.7, 0.9];

export interface LayerValue {
  layer: LayerId;
  /** Which equation of the layer (the compound's own correlations can be several). */
  label: string;
  value: number;
  uncertainty_percent: number;
}

export interface Disagreement {
  compound: string;
  cas: string;
  property: ComparedProperty;
  /** K; with Tr for the saturation properties. */
  temperature: number;
  reduced_temperature?: number;
  unit: string;
  values: LayerValue[];
  /** The largest |x − y|/y over pairs, %, and the pair's combined uncertainty, %. */
  deviation_percent: number;
  allowed_percent: number;
  chain: { label: string; value: number; why: string };
  /** Where our own correlation was already checked against its source (data/correlation-crosscheck.json). */
  checked?: string;
}

const digits = (x: number) => Number(x.toPrecision(6));

/** The chain's rule at each property, as the report states it. */
const WHY: Record<ComparedProperty, string> = {
  ideal_gas_cp:
    "first of α⁰, NASA-7, Poling polynomial, ChemSep whose range holds T (α⁰ over the reference equation's range: the paper's range for its Cp° equation is not on record)",
  vapor_pressure:
    'the reference equation answers over its whole saturation line; else IAPWS-IF97 (water); else the first own correlation, then ChemSep, whose range holds T',
  liquid_density: 'the reference equation answers from the triple point to Tc; else the first fit whose range holds T',
};

const inside = (range: { min: number; max: number }, t: number) => t >= range.min && t <= range.max;

function cpLayers(compound: Compound, t: number): LayerValue[] {
  const layers: [LayerId, string, CpModel | undefined][] = [
    ['reference_eos', 'reference equation α⁰', referenceModel(compound)],
    ['nasa7', 'NASA-7', nasaModel(compound)],
    ['own_correlation', 'Poling polynomial', storedModel(compound)],
    ['chemsep', 'ChemSep', chemsepModel(compound)],
  ];
  return layers.flatMap(([layer, label, model]) =>
    model && inside(model.range, t)
      ? [{ layer, label, value: model.cp(t), uncertainty_percent: LAYER_UNCERTAINTY[layer].percent.ideal_gas_cp! }]
      : [],
  );
}

function ownPressure(c: VaporPressureCorrelation, t: number): number {
  return c.equation === 'antoine'
    ? antoinePressure(c.coefficients, t)
    : wagnerPressure(c.coefficients, c.critical_temperature, c.critical_pressure * 1e5, t);
}

/** A reference equation's saturation state, or undefined where its solver finds none. */
function saturation(compound: Compound, t: number) {
  const fluid = referenceFluidByCas(compound.cas);
  if (!fluid || !(t >= fluid.tripleTemperature && t < fluid.critical.temperature)) return undefined;
  try {
    return { fluid, state: saturationAtTemperature(fluid, t) };
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function pressureLayers(compound: Compound, t: number): LayerValue[] {
  const out: LayerValue[] = [];
  const u = (layer: LayerId) => LAYER_UNCERTAINTY[layer].percent.vapor_pressure!;
  const sat = saturation(compound, t);
  if (sat)
    out.push({
      layer: 'reference_eos',
      label: 'reference equation',
      value: sat.state.pressure,
      uncertainty_percent: u('reference_eos'),
    });
  if (compound.cas === '7732-18-5' && inside(IF97_SATURATION_TEMPERATURE_RANGE, t)) {
    out.push({
      layer: 'iapws_if97',
      label: 'IAPWS-IF97',
      value: if97SaturationPressure(t),
      uncertainty_percent: u('iapws_if97'),
    });
  }
  for (const c of compound.correlations?.vapor_pressure ?? []) {
    if (!inside(c.valid_range, t)) continue;
    const label = `own ${c.equation} (${c.valid_range.min}–${c.valid_range.max} K)`;
    out.push({ layer: 'own_correlation', label, value: ownPressure(c, t), uncertainty_percent: u('own_correlation') });
  }
  const fit = chemsepEntry(compound.cas)?.correlations.vapor_pressure;
  if (fit && inside(fit.range, t))
    out.push({ layer: 'chemsep', label: 'ChemSep', value: fit.value(t), uncertainty_percent: u('chemsep') });
  return out;
}

function densityLayers(compound: Compound, t: number): LayerValue[] {
  const out: LayerValue[] = [];
  const u = (layer: LayerId) => LAYER_UNCERTAINTY[layer].percent.liquid_density!;
  const sat = saturation(compound, t);
  if (sat) {
    const value = sat.state.liquidDensity * sat.fluid.molarMass;
    out.push({ layer: 'reference_eos', label: 'reference equation', value, uncertainty_percent: u('reference_eos') });
  }
  const fit = chemsepEntry(compound.cas)?.correlations.liquid_density;
  const molarMass = compound.properties.molecular_weight?.value;
  if (fit && molarMass !== undefined && inside(fit.range, t)) {
    // kmol/m3 × g/mol = kg/m3
    out.push({
      layer: 'chemsep',
      label: 'ChemSep',
      value: fit.value(t) * molarMass,
      uncertainty_percent: u('chemsep'),
    });
  }
  return out;
}

/** The pair of layers farthest apart relative to their combined uncertainty. */
function worstPair(values: LayerValue[]): { deviation: number; allowed: number } | undefined {
  let worst: { deviation: number; allowed: number; excess: number } | undefined;
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      const [a, b] = [values[i], values[j]];
      const deviation = (100 * Math.abs(a.value - b.value)) / Math.min(Math.abs(a.value), Math.abs(b.value));
      const allowed = a.uncertainty_percent + b.uncertainty_percent;
      if (!worst || deviation / allowed > worst.excess) worst = { deviation, allowed, excess: deviation / allowed };
    }
  }
  return worst && worst.deviation > worst.allowed ? worst : undefined;
}

/** The layer of `values` the chain's answer came from, matched by value (same functions, same numbers). */
function chainLabel(values: LayerValue[], value: number, method: string): string {
  const match = values.find((v) => Math.abs(v.value - value) <= 1e-9 * Math.abs(value));
  return match?.label ?? method;
}

async function chainAnswer(
  compound: Compound,
  property: ComparedProperty,
  t: number,
  values: LayerValue[],
): Promise<{ label: string; value: number }> {
  try {
    if (property === 'ideal_gas_cp') {
      const model = await cpModelOf(compound, t, t);
      return { label: chainLabel(values, model.cp(t), model.method), value: model.cp(t) };
    }
    if (property === 'vapor_pressure') {
      const point = vaporPressureOf(compound, t);
      return { label: chainLabel(values, point.pressure, point.method), value: point.pressure };
    }
    const density = liquidDensityOf(compound, t).liquid_density;
    // The tool rounds to its method's digits: match within that rounding (layers this close do not disagree).
    const match = values.find((v) => Math.abs(v.value - density.value) <= 1e-3 * density.value);
    return { label: match?.label ?? density.method, value: match?.value ?? density.value };
  } catch (error) {
    if (error instanceof ToolError) return { label: `none (${error.code})`, value: Number.NaN };
    throw error;
  }
}

/** The reason on record in correlation-crosscheck.json for one of the compound's own correlations in `values`. */
function checkedReason(compound: Compound, property: ComparedProperty, values: LayerValue[]): string | undefined {
  return crosscheck.justified.find(
    (j) =>
      j.cas === compound.cas &&
      j.correlation === property &&
      (property === 'ideal_gas_cp' ||
        values.some(
          (v) => j.valid_range && v.label === `own ${j.equation} (${j.valid_range.min}–${j.valid_range.max} K)`,
        )),
  )?.reason;
}

const UNITS: Record<ComparedProperty, string> = {
  ideal_gas_cp: 'J/(mol·K)',
  vapor_pressure: 'Pa',
  liquid_density: 'kg/m3',
};

async function compare(
  compound: Compound,
  property: ComparedProperty,
  t: number,
  values: LayerValue[],
  reduced?: number,
): Promise<Disagreement | undefined> {
  const worst = worstPair(values);
  if (!worst) return undefined;
  const chain = await chainAnswer(compound, property, t, values);
  const checked = checkedReason(compound, property, values);
  return {
    compound: compound.name,
    cas: compound.cas,
    property,
    temperature: digits(t),
    ...(reduced === undefined ? {} : { reduced_temperature: reduced }),
    unit: UNITS[property],
    values: values.map((v) => ({ ...v, value: digits(v.value) })),
    deviation_percent: Number(worst.deviation.toFixed(2)),
    allowed_percent: worst.allowed,
    chain: { label: chain.label, value: digits(chain.value), why: WHY[property] },
    ...(checked ? { checked } : {}),
  };
}

export interface LayerReport {
  compared: Record<ComparedProperty, number>;
  /** Each Cp° fit's |deviation| from the reference equations' α⁰ at 298.15 and 500 K: the basis of its tolerance. */
  cp_fits_against_alpha0: Record<'nasa7' | 'poling' | 'chemsep', { points: number; median_percent: number }>;
  disagreements: Disagreement[];
}

/** How far each Cp° fit lies from α⁰ where both hold, at 298.15 and 500 K (median, %). */
function cpFitsAgainstAlpha0(compounds: readonly Compound[]): LayerReport['cp_fits_against_alpha0'] {
  const deviations = { nasa7: [] as number[], poling: [] as number[], chemsep: [] as number[] };
  for (const compound of compounds) {
    const alpha0 = referenceModel(compound);
    if (!alpha0) continue;
    const fits = { nasa7: nasaModel(compound), poling: storedModel(compound), chemsep: chemsepModel(compound) };
    for (const t of CP_TEMPERATURES.slice(0, 2)) {
      if (!inside(alpha0.range, t)) continue;
      for (const [k, fit] of Object.entries(fits) as [keyof typeof fits, CpModel | undefined][]) {
        if (fit && inside(fit.range, t)) deviations[k].push(100 * Math.abs(fit.cp(t) / alpha0.cp(t) - 1));
      }
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summary = (xs: number[]) => ({ points: xs.length, median_percent: Number(median(xs).toFixed(2)) });
  return { nasa7: summary(deviations.nasa7), poling: summary(deviations.poling), chemsep: summary(deviations.chemsep) };
}

/** The comparison over the catalogue (or the compounds given). */
export async function layerReport(compounds: readonly Compound[] = allCompounds()): Promise<LayerReport> {
  const compared: Record<ComparedProperty, number> = { ideal_gas_cp: 0, vapor_pressure: 0, liquid_density: 0 };
  const disagreements: Disagreement[] = [];
  const add = async (compound: Compound, property: ComparedProperty, t: number, values: LayerValue[], tr?: number) => {
    if (values.length < 2) return;
    compared[property]++;
    const d = await compare(compound, property, t, values, tr);
    if (d) disagreements.push(d);
  };
  for (const compound of compounds) {
    for (const t of CP_TEMPERATURES) await add(compound, 'ideal_gas_cp', t, cpLayers(compound, t));
    const tc =
      compound.properties.critical_temperature?.value ?? referenceFluidByCas(compound.cas)?.critical.temperature;
    if (tc === undefined) continue;
    for (const tr of REDUCED_TEMPERATURES) {
      const t = tr * tc;
      await add(compound, 'vapor_pressure', t, pressureLayers(compound, t), tr);
      await add(compound, 'liquid_density', t, densityLayers(compound, t), tr);
    }
  }
  return { compared, cp_fits_against_alpha0: cpFitsAgainstAlpha0(compounds), disagreements };
}

/** The key a disagreement is listed under: compound, property and state. */
export function disagreementKey(d: Pick<Disagreement, 'cas' | 'property' | 'temperature'>): string {
  return `${d.cas} ${d.property} ${d.temperature} K`;
}
