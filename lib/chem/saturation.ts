/**
 * Which vapour-pressure method answers for a compound, and the saturation point it gives: the
 * choice shared by service_vapor_pressure (P at T) and service_boiling_point (T at P), so the two
 * are inverses of each other. SI: T in K, P in Pa.
 *
 * The methods, in order of preference, each with the range it holds over:
 * 1. the fluid's reference equation of state (./helmholtz/), where one is on hand: saturation by phase
 *    equilibrium from the triple point to the critical point; for water without it, IAPWS-IF97 region 4
 *    (273.15–647.096 K);
 * 2. the compound's stored correlations, in the order the data lists them (most accurate first), each over
 *    the range of its data; then ChemSep's DIPPR-101 fit (./chemsep-layer.ts, lower precedence), over its range;
 * 3. Lee–Kesler from Tc, Pc and ω, flagged as estimated from corresponding states, over 0.3·Tc to Tc
 *    (LEE_KESLER_REDUCED_RANGE).
 * The shared chain rule (./method-chain.ts) picks among them: of 1–2 the first whose range holds the
 * temperature (for a boiling point, the pressure: each curve's pressures over its temperature range), else
 * one a little beyond its range, extrapolated with a warning; then Lee–Kesler the same way; else
 * out_of_range naming every range.
 * At or above Tc (or Pc) there is no vapour pressure (boiling point): out_of_range. Below the
 * melting or triple point the answer is the subcooled liquid's, with a warning.
 */

import { brentRoot } from './brent.ts';
import { chemsepEntry, type LayerCorrelation } from './chemsep-layer.ts';
import type { Compound } from './compounds.ts';
import type { ValidRange, VaporPressureCorrelation } from './correlations.ts';
import type { ReferenceFluid } from './helmholtz/fluid-file.ts';
import { referenceFluidByCas, referenceMethod } from './helmholtz/fluids.ts';
import { saturationAtPressure, saturationAtTemperature } from './helmholtz/state.ts';
import {
  IF97_SATURATION_PRESSURE_RANGE,
  IF97_SATURATION_TEMPERATURE_RANGE,
  IF97_SOURCE,
  if97SaturationPressure,
  if97SaturationTemperature,
} from './iapws97.ts';
import {
  type ChainMethod,
  celsiusHint,
  chooseMethod,
  describeSpan,
  pressureUnitHint,
  type Span,
  temperatureReach,
} from './method-chain.ts';
import type { PrecisionClass } from './precision.ts';
import { ToolError } from './tool.ts';
import {
  antoinePressure,
  antoineTemperature,
  LEE_KESLER_REDUCED_RANGE,
  leeKeslerPressure,
  leeKeslerTemperature,
  wagnerPressure,
  wagnerTemperature,
} from './vapor-pressure.ts';

const BAR = 1e5;
const ATMOSPHERE = 101325;
const WATER_CAS = '7732-18-5';

const LEE_KESLER_SOURCE =
  "B. I. Lee, M. G. Kesler, AIChE J. 21 (1975) 510; Poling, Prausnitz & O'Connell, The Properties of Gases and Liquids, 5th ed. (2001), §7-4, Eqs. 7-4.1 to 7-4.3";

export interface SaturationPoint {
  /** K */
  temperature: number;
  /** Pa */
  pressure: number;
  /** The equation, as a reader can reproduce it. */
  method: string;
  source: string;
  /** The range of temperatures the method holds over, where it has one. */
  valid_range?: ValidRange;
  /** The method's class, which sets the digits an answer keeps (./precision.ts). */
  precision: PrecisionClass;
  warnings: string[];
}

/** A vapour-pressure curve P(T) with its inverse, as one method a compound can be answered by. */
interface Curve {
  /** Short name for warnings and refusals. */
  name: string;
  method: string;
  /** The method's name for the inverse ("… solved for T"). */
  inverseMethod: string;
  source: string;
  /** The temperatures the method holds over: its data's, or for an estimate its paper's. */
  range: ValidRange;
  /** Temperatures (K) the formula can be evaluated at: from floor up to ceiling (its own Tc). */
  floor: number;
  ceiling: number;
  /** The pressure at the ceiling, where it is the critical point and the curve cannot be solved right at it. */
  ceilingPressure?: number;
  pressure(t: number): number;
  temperature(p: number): number;
  /** Caveats that always apply to this method. */
  caveats: string[];
  /** Reference formulations (reference EOS, IAPWS) keep more digits than correlations and estimates. */
  kind: 'standard' | 'correlation' | 'estimate';
}

interface Critical {
  tc?: number;
  pc?: number;
  omega?: number;
}

function criticalOf(compound: Compound): Critical {
  const p = compound.properties;
  return {
    tc: p.critical_temperature?.value,
    pc: p.critical_pressure === undefined ? undefined : p.critical_pressure.value * BAR,
    omega: p.acentric_factor?.value,
  };
}

const fmt = (x: number) => String(+x.toPrecision(6));

function iapwsCurve(): Curve {
  return {
    name: 'the IAPWS-IF97 saturation equation',
    method: 'IAPWS-IF97 saturation-pressure equation (region 4, Eq. 30)',
    inverseMethod: 'IAPWS-IF97 saturation-temperature equation (region 4, Eq. 31)',
    source: IF97_SOURCE,
    range: { ...IF97_SATURATION_TEMPERATURE_RANGE, unit: 'K' },
    floor: 0,
    ceiling: IF97_SATURATION_TEMPERATURE_RANGE.max,
    pressure: if97SaturationPressure,
    temperature: if97SaturationTemperature,
    caveats: [],
    kind: 'standard',
  };
}

function correlationCurve(c: VaporPressureCorrelation): Curve {
  if (c.equation === 'antoine') {
    const { A, B, C } = c.coefficients;
    const method = `Antoine equation log10(P/bar) = A − B/(T/K + C), A = ${A}, B = ${B}, C = ${C}`;
    return {
      name: 'the Antoine equation on record',
      method,
      inverseMethod: `${method}, solved for T`,
      source: c.source,
      range: c.valid_range,
      // At T = −C the form has a pole; below it, it means nothing.
      floor: Math.max(0, -C),
      ceiling: Infinity,
      pressure: (t) => antoinePressure(c.coefficients, t),
      temperature: (p) => antoineTemperature(c.coefficients, p),
      caveats: [],
      kind: 'correlation',
    };
  }
  const { a, b, c: cc, d } = c.coefficients;
  const tc = c.critical_temperature;
  const pc = c.critical_pressure * BAR;
  const method = `Wagner equation ln(P/Pc) = (a·τ + b·τ^1.5 + c·τ^2.5 + d·τ^5)/Tr, τ = 1 − T/Tc, a = ${a}, b = ${b}, c = ${cc}, d = ${d}, Tc = ${tc} K, Pc = ${c.critical_pressure} bar`;
  return {
    name: 'the Wagner equation on record',
    method,
    inverseMethod: `${method}, solved for T (Brent's method)`,
    source: c.source,
    range: c.valid_range,
    floor: 0,
    ceiling: tc,
    pressure: (t) => wagnerPressure(c.coefficients, tc, pc, t),
    temperature: (p) => wagnerTemperature(c.coefficients, tc, pc, p),
    caveats: [],
    kind: 'correlation',
  };
}

/** The saturation line of a reference equation of state: equal pressure and Gibbs energy in both phases. */
/** Beyond this difference (K) from the normal boiling point on record, a reference equation is flagged. */
const REFERENCE_BOILING_POINT_WARNING_K = 0.5;
const boilingPointCaveats = new WeakMap<ReferenceFluid, string[]>();

/**
 * A reference equation checked against the compound's normal boiling point on record (another source):
 * most meet it within a few hundredths of a kelvin; the few older equations that miss it by more than
 * REFERENCE_BOILING_POINT_WARNING_K say so in every answer. Computed once per fluid.
 */
function referenceCaveats(fluid: ReferenceFluid, compound: Compound): string[] {
  let caveats = boilingPointCaveats.get(fluid);
  if (!caveats) {
    const tb = compound.properties.normal_boiling_point;
    const eosTb =
      tb && tb.value > fluid.tripleTemperature ? saturationAtPressure(fluid, ATMOSPHERE).temperature : undefined;
    caveats =
      tb && eosTb !== undefined && Math.abs(eosTb - tb.value) > REFERENCE_BOILING_POINT_WARNING_K
        ? [
            `This equation puts the normal boiling point at ${fmt(eosTb)} K; the value on record is ${tb.value} K (${tb.source}): expect saturation temperatures off by about ${fmt(Math.abs(eosTb - tb.value))} K.`,
          ]
        : [];
    boilingPointCaveats.set(fluid, caveats);
  }
  return caveats;
}

function referenceCurve(fluid: ReferenceFluid, compound: Compound): Curve {
  const method = `${referenceMethod(fluid)}: saturation by phase equilibrium (equal pressure and Gibbs energy of liquid and vapour)`;
  return {
    name: `the reference equation of state for ${fluid.name}`,
    method,
    inverseMethod: `${method}, solved for T`,
    source: fluid.citation,
    range: { min: fluid.tripleTemperature, max: fluid.critical.temperature, unit: 'K' },
    // Below the triple point the equation has no liquid–vapour equilibrium (so no extrapolation there); at Tc
    // the phases merge.
    floor: fluid.tripleTemperature,
    ceiling: fluid.critical.temperature * (1 - 1e-4),
    ceilingPressure: fluid.critical.pressure,
    pressure: (t) => saturationAtTemperature(fluid, t).pressure,
    temperature: (p) => saturationAtPressure(fluid, p).temperature,
    caveats: referenceCaveats(fluid, compound),
    kind: 'standard',
  };
}

/** Beyond this deviation (%) from 1 atm at the normal boiling point on record, a ChemSep fit is flagged. */
const BOILING_POINT_DEVIATION_WARNING = 2;

/**
 * ChemSep's vapour-pressure fit (DIPPR 101 or ln-Antoine), inverted by Brent's method on ln P. Checked
 * against the compound's normal boiling point on record (another source): a fit that misses 1 atm there
 * by more than BOILING_POINT_DEVIATION_WARNING % says so in every answer.
 */
function chemsepCurve(c: LayerCorrelation, compound: Compound): Curve {
  // Evaluated as far beyond its range as the chain rule lets it answer.
  const { min: floor, max: ceiling } = temperatureReach(c.range);
  return {
    name: `ChemSep's DIPPR-${c.equation.form} fit`,
    method: c.method,
    inverseMethod: `${c.method}, solved for T (Brent's method)`,
    source: c.source,
    range: c.range,
    floor,
    ceiling,
    pressure: (t) => c.value(t),
    temperature: (p) => {
      const target = Math.log(p);
      return brentRoot((t) => Math.log(c.value(t)) - target, floor, ceiling, { xTolerance: 1e-9 * ceiling });
    },
    caveats: boilingPointCheck(c, compound),
    kind: 'correlation',
  };
}

function boilingPointCheck(c: LayerCorrelation, compound: Compound): string[] {
  const tb = compound.properties.normal_boiling_point;
  if (!tb || tb.value < c.range.min || tb.value > c.range.max) return [];
  const deviation = (100 * (c.value(tb.value) - ATMOSPHERE)) / ATMOSPHERE;
  return Math.abs(deviation) > BOILING_POINT_DEVIATION_WARNING
    ? [
        `At the normal boiling point on record (${tb.value} K; ${tb.source}) this fit gives ${fmt(c.value(tb.value) / 1000)} kPa, ${fmt(deviation)} % off 101.325 kPa: expect errors of that size.`,
      ]
    : [];
}

function leeKeslerCurve(compound: Compound, { tc, pc, omega }: Required<Critical>): Curve {
  const p = compound.properties;
  const inputs = [
    ...new Set([p.critical_temperature!.source, p.critical_pressure!.source, p.acentric_factor!.source]),
  ].join('; ');
  const method = `Lee–Kesler corresponding-states correlation ln(P/Pc) = f0(Tr) + ω·f1(Tr), from Tc = ${tc} K, Pc = ${fmt(pc / BAR)} bar, ω = ${omega}`;
  return {
    name: 'the Lee–Kesler estimate',
    method,
    inverseMethod: `${method}, solved for T (Brent's method)`,
    source: `${LEE_KESLER_SOURCE}; Tc, Pc, ω: ${inputs}`,
    range: { min: LEE_KESLER_REDUCED_RANGE.min * tc, max: LEE_KESLER_REDUCED_RANGE.max * tc, unit: 'K' },
    floor: 0,
    ceiling: tc,
    pressure: (t) => leeKeslerPressure(tc, pc, omega, t),
    temperature: (pressure) => leeKeslerTemperature(tc, pc, omega, pressure),
    caveats: [
      'Estimated from corresponding states (Lee–Kesler, from Tc, Pc and ω), not from measured vapour pressures: typically within a few percent for Tr above about 0.5, less reliable below and for strongly polar or associating substances.',
    ],
    kind: 'estimate',
  };
}

function hasCriticalSet(c: Critical): c is Required<Critical> {
  return c.tc !== undefined && c.pc !== undefined && c.omega !== undefined;
}

/** The curves a compound can be answered by, in order of preference (see the header). */
function curvesOf(compound: Compound): Curve[] {
  const critical = criticalOf(compound);
  const fluid = referenceFluidByCas(compound.cas);
  const curves = fluid ? [referenceCurve(fluid, compound)] : compound.cas === WATER_CAS ? [iapwsCurve()] : [];
  for (const c of compound.correlations?.vapor_pressure ?? []) curves.push(correlationCurve(c));
  const chemsep = chemsepEntry(compound.cas)?.correlations.vapor_pressure;
  if (chemsep) curves.push(chemsepCurve(chemsep, compound));
  if (hasCriticalSet(critical)) curves.push(leeKeslerCurve(compound, critical));
  return curves;
}

function missingData(compound: Compound, what: string): ToolError {
  const critical = criticalOf(compound);
  const missing = [
    critical.tc === undefined && 'critical temperature',
    critical.pc === undefined && 'critical pressure',
    critical.omega === undefined && 'acentric factor',
  ].filter(Boolean);
  return new ToolError(
    'missing_data',
    `No ${what} for ${compound.name}: it has no vapour-pressure correlation on record, and the Lee–Kesler estimate needs its ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not on record either.`,
    { compound: compound.name, missing },
  );
}

/** The curves as methods of a temperature chain: each over its range, reaching as far as it can be evaluated. */
function temperatureMethods(curves: Curve[]): (ChainMethod & { curve: Curve })[] {
  return curves.map((curve) => ({
    curve,
    name: curve.name,
    range: curve.range,
    reach: temperatureReach(curve.range, { min: curve.floor, max: curve.ceiling }),
    estimate: curve.kind === 'estimate',
  }));
}

/**
 * The same curves as methods of a pressure chain: each over the pressures it gives on its temperature range
 * (and reach), so a boiling point is answered by the curve whose temperatures hold it.
 */
function pressureMethods(curves: Curve[]): (ChainMethod & { curve: Curve })[] {
  return temperatureMethods(curves).map(({ curve, range, reach, estimate }) => {
    const held = { min: Math.max(range.min, reach.min), max: Math.min(range.max, reach.max) };
    const pressure = (t: number) =>
      t >= curve.ceiling && curve.ceilingPressure !== undefined
        ? curve.ceilingPressure
        : evaluate(() => curve.pressure(t));
    const span = (s: Span) => ({ min: pressure(s.min), max: pressure(s.max) });
    return {
      curve,
      name: curve.name,
      range: span(held),
      reach: span(reach),
      note: `its saturation pressures over ${describeSpan(curve.range, 'K')}`,
      estimate,
    };
  });
}

/** The vapour-pressure methods of a compound, in order, each with its temperature range and reach. */
export function vaporPressureMethods(compound: Compound): ChainMethod[] {
  return temperatureMethods(curvesOf(compound));
}

/** The boiling-point methods of a compound, in order, each with its pressure range and reach. */
export function boilingPointMethods(compound: Compound): ChainMethod[] {
  return pressureMethods(curvesOf(compound));
}

/** Beside the estimate's own caveat: the measured equations on record, none of which reaches the state. */
function estimateNote(curve: Curve, curves: Curve[], at: string): string[] {
  const measured = curves.filter((c) => c.kind !== 'estimate');
  return curve.kind === 'estimate' && measured.length > 0
    ? [
        `${at} is outside the range of every vapour-pressure equation on record (${measured.map((c) => describeSpan(c.range, 'K')).join(', ')}), so the generalized estimate answers.`,
      ]
    : [];
}

function belowMeltingWarning(compound: Compound, t: number): string[] {
  const melting = compound.properties.melting_point;
  const tm = melting?.value;
  if (tm === undefined || t >= tm) return [];
  // The data gives the triple point instead of a melting point where its note says so (e.g. CO2).
  const triple = /triple/i.test(melting?.note ?? '');
  return [
    `${fmt(t)} K is below the ${triple ? 'triple point' : 'melting point'} (${tm} K): the stable phase is the solid, whose sublimation pressure is lower; the value is the vapour pressure of the subcooled (metastable) liquid, extrapolated.`,
  ];
}

function criticalTemperatureOf(compound: Compound, curves: Curve[]): number | undefined {
  return (
    criticalOf(compound).tc ??
    (curves.some((c) => c.source === IF97_SOURCE) ? IF97_SATURATION_TEMPERATURE_RANGE.max : undefined)
  );
}

/** Reference equations and IAPWS-IF97 are reference formulations; fits and Lee–Kesler are correlations. */
const PRECISION_OF_KIND: Record<Curve['kind'], PrecisionClass> = {
  standard: 'referenceEquation',
  correlation: 'correlation',
  estimate: 'correlation',
};

function point(
  curve: Curve,
  temperature: number,
  pressure: number,
  method: string,
  warnings: string[],
): SaturationPoint {
  if (!(Number.isFinite(pressure) && pressure > 0 && Number.isFinite(temperature) && temperature > 0)) {
    throw new ToolError(
      'no_solution',
      `${method} gives no finite saturation point here (T = ${temperature} K, P = ${pressure} Pa).`,
    );
  }
  return {
    temperature,
    pressure,
    method,
    source: curve.source,
    valid_range: curve.range,
    precision: PRECISION_OF_KIND[curve.kind],
    warnings: [...curve.caveats, ...warnings],
  };
}

/** Vapour pressure of a compound's liquid at temperature t (K). */
export function vaporPressureOf(compound: Compound, t: number): SaturationPoint {
  if (!(t > 0)) throw new ToolError('out_of_range', `The temperature must be above absolute zero; got ${t} K.`);
  const curves = curvesOf(compound);
  const tc = criticalTemperatureOf(compound, curves);
  if (tc !== undefined && t >= tc) {
    throw new ToolError(
      'out_of_range',
      `${fmt(t)} K is at or above the critical temperature of ${compound.name} (${tc} K): above the critical temperature there is no vapour pressure (no liquid–vapour equilibrium).`,
      {
        temperature: t,
        critical_temperature: tc,
      },
    );
  }
  if (curves.length === 0) throw missingData(compound, 'vapour pressure');
  const chosen = chooseMethod(temperatureMethods(curves), [t], {
    quantity: 'temperature',
    unit: 'K',
    what: `the vapour pressure of ${compound.name}`,
    hint: celsiusHint,
  });
  const { curve } = chosen.method;
  return point(
    curve,
    t,
    evaluate(() => curve.pressure(t)),
    curve.method,
    [...chosen.warnings, ...estimateNote(curve, curves, `${fmt(t)} K`), ...belowMeltingWarning(compound, t)],
  );
}

/** A curve's value; a solver that cannot reach it (RangeError) is the caller's no_solution, never a crash. */
function evaluate(run: () => number): number {
  try {
    return run();
  } catch (error) {
    if (error instanceof RangeError) throw new ToolError('no_solution', `${error.message}.`);
    throw error;
  }
}

/**
 * Boiling (saturation) temperature of a compound at pressure p (Pa): the same methods as vaporPressureOf,
 * read the other way. The chain rule picks the curve by pressure (each curve's pressures over its range),
 * and that curve is solved for T.
 */
export function boilingPointOf(compound: Compound, p: number): SaturationPoint {
  if (!(p > 0)) throw new ToolError('out_of_range', `The pressure must be a positive absolute pressure; got ${p} Pa.`);
  const curves = curvesOf(compound);
  const pc =
    criticalOf(compound).pc ??
    (curves.some((c) => c.source === IF97_SOURCE) ? IF97_SATURATION_PRESSURE_RANGE.max : undefined);
  if (pc !== undefined && p >= pc) {
    throw new ToolError(
      'out_of_range',
      `${fmt(p / BAR)} bar is at or above the critical pressure of ${compound.name} (${fmt(pc / BAR)} bar): above the critical pressure there is no boiling point (the liquid turns into vapour continuously).`,
      {
        pressure: p,
        critical_pressure: pc,
      },
    );
  }
  if (curves.length === 0) throw missingData(compound, 'boiling point');
  const chosen = chooseMethod(pressureMethods(curves), [p], {
    quantity: 'pressure',
    unit: 'Pa',
    what: `the boiling point of ${compound.name}`,
    hint: pressureUnitHint,
  });
  const { curve } = chosen.method;
  const t = evaluate(() => curve.temperature(p));
  return point(curve, t, p, curve.inverseMethod, [
    ...chosen.warnings,
    ...estimateNote(curve, curves, `The boiling point ${fmt(t)} K`),
    ...belowMeltingWarning(compound, t),
  ]);
}
