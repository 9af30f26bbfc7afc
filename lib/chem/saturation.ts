/**
 * Which vapour-pressure method answers for a compound, and the saturation point it gives: the
 * choice shared by service_vapor_pressure (P at T) and service_boiling_point (T at P), so the two
 * are inverses of each other. SI: T in K, P in Pa.
 *
 * Order of preference:
 * 1. the fluid's reference equation of state (./helmholtz/), where one is on hand: saturation by phase
 *    equilibrium from the triple point to the critical point; for water without it, IAPWS-IF97 region 4;
 * 2. the compound's stored correlations, in the order the data lists them (most accurate first),
 *    then ChemSep's DIPPR-101 fit (./chemsep-layer.ts, lower precedence), the first whose valid
 *    range holds the temperature;
 * 3. outside every range: the nearest correlation, extrapolated, if the temperature is at most
 *    EXTRAPOLATION_LIMIT_K beyond its range (a fitted equation a little outside its data is closer to
 *    the truth than a generalized estimate), otherwise Lee–Kesler from Tc, Pc and ω; with neither
 *    Tc, Pc and ω, the nearest correlation extrapolated however far; every case with a warning;
 * 4. no correlation: Lee–Kesler, flagged as estimated from corresponding states.
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
import type { PrecisionClass } from './precision.ts';
import { ToolError } from './tool.ts';
import {
  antoinePressure,
  antoineTemperature,
  leeKeslerPressure,
  leeKeslerTemperature,
  wagnerPressure,
  wagnerTemperature,
} from './vapor-pressure.ts';

/** How far (K) beyond its fitted range a stored correlation is still preferred to Lee–Kesler. */
export const EXTRAPOLATION_LIMIT_K = 10;

const BAR = 1e5;
const ATMOSPHERE = 101325;
const WATER_CAS = '7732-18-5';

export const LEE_KESLER_SOURCE =
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
  method: string;
  /** The method's name for the inverse ("… solved for T"). */
  inverseMethod: string;
  source: string;
  range?: ValidRange;
  /** Temperatures (K) the formula can be evaluated at: above floor, up to ceiling (its own Tc). */
  floor: number;
  ceiling: number;
  pressure(t: number): number;
  temperature(p: number): number;
  /** Caveats that always apply to this method. */
  caveats: string[];
  /** A standard (reference EOS, IAPWS) answers over its whole range and is extrapolated before anything else is tried. */
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
    method,
    inverseMethod: `${method}, solved for T`,
    source: fluid.citation,
    range: { min: fluid.tripleTemperature, max: fluid.critical.temperature, unit: 'K' },
    // Below the triple point the equation has no liquid–vapour equilibrium; at Tc the phases merge.
    floor: fluid.tripleTemperature - 1e-9,
    ceiling: fluid.critical.temperature * (1 - 1e-4),
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
  // Evaluated a little beyond its range (the extrapolation rules below decide whether to answer).
  const floor = Math.max(c.range.min - EXTRAPOLATION_LIMIT_K, 0.5 * c.range.min);
  const ceiling = c.range.max + EXTRAPOLATION_LIMIT_K;
  return {
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
    method,
    inverseMethod: `${method}, solved for T (Brent's method)`,
    source: `${LEE_KESLER_SOURCE}; Tc, Pc, ω: ${inputs}`,
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
function curvesOf(compound: Compound): { measured: Curve[]; estimate?: Curve } {
  const critical = criticalOf(compound);
  const fluid = referenceFluidByCas(compound.cas);
  const measured = fluid ? [referenceCurve(fluid, compound)] : compound.cas === WATER_CAS ? [iapwsCurve()] : [];
  for (const c of compound.correlations?.vapor_pressure ?? []) measured.push(correlationCurve(c));
  const chemsep = chemsepEntry(compound.cas)?.correlations.vapor_pressure;
  if (chemsep) measured.push(chemsepCurve(chemsep, compound));
  return { measured, ...(hasCriticalSet(critical) ? { estimate: leeKeslerCurve(compound, critical) } : {}) };
}

function distanceOutside(range: ValidRange, t: number): number {
  return t < range.min ? range.min - t : t > range.max ? t - range.max : 0;
}

function describeRange(range: ValidRange): string {
  return `${range.min}–${range.max} K`;
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

/**
 * The curve for temperature t: the first measured curve whose range holds t; else the nearest one
 * within EXTRAPOLATION_LIMIT_K; else Lee–Kesler; else the nearest one however far. The warnings
 * say what was extrapolated.
 */
function chooseAt(
  curves: { measured: Curve[]; estimate?: Curve },
  t: number,
): { curve: Curve; warnings: string[] } | undefined {
  const usable = curves.measured.filter((c) => t > c.floor && t <= c.ceiling);
  // A reference equation answers over its whole range; water's IAPWS-IF97 (when no reference equation is on
  // hand) is better extrapolated below its range than any generalized estimate.
  if (usable[0]?.kind === 'standard') {
    return {
      curve: usable[0],
      warnings:
        distanceOutside(usable[0].range!, t) === 0
          ? []
          : [
              `${fmt(t)} K is outside the range of the IAPWS-IF97 saturation equation (${describeRange(usable[0].range!)}); the value is extrapolated.`,
            ],
    };
  }
  const inRange = usable.find((c) => c.range && distanceOutside(c.range, t) === 0);
  if (inRange) return { curve: inRange, warnings: [] };
  const nearest = [...usable].sort((x, y) => distanceOutside(x.range!, t) - distanceOutside(y.range!, t))[0];
  const extrapolated = (curve: Curve) => ({
    curve,
    warnings: [
      `${fmt(t)} K is outside the range the equation was fitted over (${describeRange(curve.range!)}); the value is extrapolated.`,
    ],
  });
  if (nearest && distanceOutside(nearest.range!, t) <= EXTRAPOLATION_LIMIT_K) return extrapolated(nearest);
  if (curves.estimate) {
    const outside = usable.map((c) => describeRange(c.range!));
    return {
      curve: curves.estimate,
      warnings:
        outside.length > 0
          ? [
              `${fmt(t)} K is more than ${EXTRAPOLATION_LIMIT_K} K outside the range of every vapour-pressure equation on record (${outside.join(', ')}), so the generalized estimate is used.`,
            ]
          : [],
    };
  }
  return nearest ? extrapolated(nearest) : undefined;
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
    ...(curve.range ? { valid_range: curve.range } : {}),
    precision: PRECISION_OF_KIND[curve.kind],
    warnings: [...curve.caveats, ...warnings],
  };
}

/** Vapour pressure of a compound's liquid at temperature t (K). */
export function vaporPressureOf(compound: Compound, t: number): SaturationPoint {
  if (!(t > 0)) throw new ToolError('out_of_range', `The temperature must be above absolute zero; got ${t} K.`);
  const curves = curvesOf(compound);
  const tc = criticalTemperatureOf(compound, curves.measured);
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
  const chosen = chooseAt(curves, t);
  if (!chosen) throw missingData(compound, 'vapour pressure');
  return point(
    chosen.curve,
    t,
    evaluate(() => chosen.curve.pressure(t)),
    chosen.curve.method,
    [...chosen.warnings, ...belowMeltingWarning(compound, t)],
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
 * The temperature at which a curve reaches pressure p, if it has one below its ceiling; failures
 * of the solver (p beyond what the form can reach) mean "no such temperature" for this curve.
 */
function solve(curve: Curve, p: number): number | undefined {
  try {
    const t = curve.temperature(p);
    return Number.isFinite(t) && t > curve.floor && t <= curve.ceiling ? t : undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * Boiling (saturation) temperature of a compound at pressure p (Pa): the same choice of method as
 * vaporPressureOf, read the other way. Each measured curve is solved for T; the first whose
 * solution lies inside its range answers; else the nearest solution within EXTRAPOLATION_LIMIT_K of
 * its range; else Lee–Kesler; else the nearest extrapolated solution.
 */
export function boilingPointOf(compound: Compound, p: number): SaturationPoint {
  if (!(p > 0)) throw new ToolError('out_of_range', `The pressure must be a positive absolute pressure; got ${p} Pa.`);
  const curves = curvesOf(compound);
  const pc =
    criticalOf(compound).pc ??
    (curves.measured.some((c) => c.source === IF97_SOURCE) ? IF97_SATURATION_PRESSURE_RANGE.max : undefined);
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

  const solutions = curves.measured
    .map((curve) => ({ curve, t: solve(curve, p) }))
    .filter((s): s is { curve: Curve; t: number } => s.t !== undefined);
  const finish = (curve: Curve, t: number, warnings: string[]) =>
    point(curve, t, p, curve.inverseMethod, [...warnings, ...belowMeltingWarning(compound, t)]);
  const extrapolated = (curve: Curve, t: number) =>
    finish(curve, t, [
      `The boiling point ${fmt(t)} K lies outside the range the equation was fitted over (${describeRange(curve.range!)}); the value is extrapolated.`,
    ]);

  if (solutions[0]?.curve.kind === 'standard') {
    const { curve, t } = solutions[0];
    return curve.source === IF97_SOURCE && p < IF97_SATURATION_PRESSURE_RANGE.min
      ? finish(curve, t, [
          `${fmt(p)} Pa is below the range of the IAPWS-IF97 saturation equation (${IF97_SATURATION_PRESSURE_RANGE.min} Pa to ${IF97_SATURATION_PRESSURE_RANGE.max / 1e6} MPa); the value is extrapolated.`,
        ])
      : finish(curve, t, []);
  }
  const inRange = solutions.find((s) => distanceOutside(s.curve.range!, s.t) === 0);
  if (inRange) return finish(inRange.curve, inRange.t, []);
  const nearest = [...solutions].sort(
    (x, y) => distanceOutside(x.curve.range!, x.t) - distanceOutside(y.curve.range!, y.t),
  )[0];
  if (nearest && distanceOutside(nearest.curve.range!, nearest.t) <= EXTRAPOLATION_LIMIT_K)
    return extrapolated(nearest.curve, nearest.t);
  if (curves.estimate) {
    const t = solve(curves.estimate, p);
    if (t === undefined)
      throw new ToolError('no_solution', `${curves.estimate.method} reaches no temperature below Tc at ${fmt(p)} Pa.`, {
        pressure: p,
      });
    const outside = curves.measured.map((c) => describeRange(c.range!));
    return finish(
      curves.estimate,
      t,
      outside.length > 0
        ? [
            `The boiling point is more than ${EXTRAPOLATION_LIMIT_K} K outside the range of every vapour-pressure equation on record (${outside.join(', ')}), so the generalized estimate is used.`,
          ]
        : [],
    );
  }
  if (nearest) return extrapolated(nearest.curve, nearest.t);
  if (curves.measured.length > 0)
    throw new ToolError(
      'no_solution',
      `No vapour-pressure equation on record for ${compound.name} reaches ${fmt(p)} Pa.`,
      { pressure: p },
    );
  throw missingData(compound, 'boiling point');
}
