/**
 * The one rule by which every tool picks among the methods of a chain (vapour pressure, boiling point,
 * saturated-liquid density, ideal-gas Cp°). Each method carries the range it holds over: a fit the range
 * of its data, an estimate the range its paper states. For a state (one value, or several that must all
 * hold, such as T and Tref):
 * 1. the first measured-data method (reference equation, fit) whose range holds the state answers;
 * 2. else the first one whose range lies within its extrapolation allowance of the state answers,
 *    extrapolated, with a warning naming its range; the allowance is the smaller of EXTRAPOLATION_LIMIT_K
 *    and EXTRAPOLATION_FRACTION of the range's width, so a narrow fit is extrapolated less;
 * 3. else the estimates (Lee–Kesler, Rackett with Zc, Joback), by the same two steps: a fit of measured
 *    data a few kelvin past its range is closer to measurement than a generalized estimate;
 * 4. else the answer is out_of_range, naming every method's range and what to give instead.
 * A method is never evaluated farther out: past its data a fit, and past its stated range an estimate,
 * can be wrong by orders of magnitude while looking like an answer.
 */
import { ToolError } from './tool.ts';

/** At most this far (K) beyond its range a method may still answer, extrapolated. */
export const EXTRAPOLATION_LIMIT_K = 10;
/** …and at most this fraction of its range's width. */
const EXTRAPOLATION_FRACTION = 0.05;

export interface Span {
  min: number;
  max: number;
}

/** How far (K) a method may be extrapolated beyond a temperature range. */
export function extrapolationAllowance(range: Span): number {
  return Math.min(EXTRAPOLATION_LIMIT_K, EXTRAPOLATION_FRACTION * (range.max - range.min));
}

/** A temperature range widened by its allowance, cut to where the method can be evaluated at all. */
export function temperatureReach(range: Span, evaluable: Span = { min: 0, max: Infinity }): Span {
  const allowance = extrapolationAllowance(range);
  return { min: Math.max(range.min - allowance, evaluable.min), max: Math.min(range.max + allowance, evaluable.max) };
}

export interface ChainMethod {
  /** Short name for warnings and refusals ("the Wagner equation (its source)"). */
  name: string;
  /** Where the method holds, in the chain's unit. */
  range: Span;
  /** Where it may answer, extrapolated: its range widened by the allowance, within where it can be evaluated. */
  reach: Span;
  /** Said after the range in a refusal, e.g. the temperatures a pressure range stands for. */
  note?: string;
  /** A generalized estimate rather than measured data or a reference equation: tried after all of those. */
  estimate?: boolean;
}

interface ChainQuantity {
  /** The argument's name: "temperature", "pressure". */
  quantity: string;
  unit: 'K' | 'Pa';
  /** What was asked, for the refusal: "the vapour pressure of water". */
  what: string;
  /** A likely unit mistake to point out in a refusal ("did you mean 25 °C?"), if any. */
  hint?: (value: number, methods: ChainMethod[]) => string | undefined;
}

const fmt = (x: number) => String(+x.toPrecision(6));
const inside = (span: Span, x: number) => x >= span.min && x <= span.max;
const holds = (m: ChainMethod, x: number) => inside(m.range, x) && inside(m.reach, x);

export function describeSpan(span: Span, unit: string): string {
  return `${fmt(span.min)}–${fmt(span.max)} ${unit}`;
}

/** The warning of a method answering at x, outside its range (x within its reach). */
export function extrapolationWarning(m: ChainMethod, x: number, unit: string): string {
  const below = x < m.range.min;
  const distance = below ? m.range.min - x : x - m.range.max;
  return `${fmt(x)} ${unit} is ${fmt(distance)} ${unit} ${below ? 'below' : 'above'} the range of ${m.name} (${describeSpan(m.range, unit)}); the value is extrapolated.`;
}

/**
 * The method of the chain for the state `points` (all in the chain's unit), by the rule in the header, with
 * a warning for each point it is extrapolated to; out_of_range when none reaches. `methods` is non-empty.
 */
export function chooseMethod<M extends ChainMethod>(
  methods: M[],
  points: number[],
  q: ChainQuantity,
): { method: M; warnings: string[] } {
  for (const tier of [methods.filter((m) => !m.estimate), methods.filter((m) => m.estimate)]) {
    const inRange = tier.find((m) => points.every((x) => holds(m, x)));
    if (inRange) return { method: inRange, warnings: [] };
    const near = tier.find((m) => points.every((x) => inside(m.reach, x)));
    if (near) {
      const outside = [...new Set(points.filter((x) => !inside(near.range, x)))];
      return { method: near, warnings: outside.map((x) => extrapolationWarning(near, x, q.unit)) };
    }
  }
  throw outOfRange(methods, points, q);
}

function outOfRange(methods: ChainMethod[], points: number[], q: ChainQuantity): ToolError {
  const at = [...new Set(points)].map((x) => `${fmt(x)} ${q.unit}`).join(' and ');
  const ranges = methods
    .map((m) => `${m.name}: ${describeSpan(m.range, q.unit)}${m.note ? ` (${m.note})` : ''}`)
    .join('; ');
  const low = Math.min(...methods.map((m) => m.range.min));
  const high = Math.max(...methods.map((m) => m.range.max));
  const hint = points.map((x) => q.hint?.(x, methods)).find((h) => h !== undefined);
  return new ToolError(
    'out_of_range',
    `No method for ${q.what} holds at ${at}, nor within the ${EXTRAPOLATION_LIMIT_K} K (or ${100 * EXTRAPOLATION_FRACTION} % of its range's width, if less) it may be extrapolated. The methods and their ranges: ${ranges}. Give a ${q.quantity} within one of these ranges (overall ${describeSpan({ min: low, max: high }, q.unit)})${hint ? `; ${hint}` : '.'}`,
    {
      [q.quantity]: { value: points.length === 1 ? points[0] : points, unit: q.unit },
      ranges: methods.map((m) => ({ method: m.name, min: m.range.min, max: m.range.max, unit: q.unit })),
    },
  );
}

/** A temperature in K far below every range that, read as °C, one of the methods holds: a unit mix-up. */
export function celsiusHint(kelvin: number, methods: ChainMethod[]): string | undefined {
  const asCelsius = kelvin + 273.15;
  return methods.some((m) => holds(m, asCelsius))
    ? `did you mean ${fmt(kelvin)} °C (${fmt(asCelsius)} K)? Then pass temperature_unit "°C".`
    : undefined;
}

/** A pressure in Pa that, read as bar or kPa, one of the methods holds: a unit mix-up. */
export function pressureUnitHint(pascal: number, methods: ChainMethod[]): string | undefined {
  for (const [unit, factor] of [
    ['bar', 1e5],
    ['kPa', 1e3],
  ] as const) {
    if (methods.some((m) => holds(m, pascal * factor)))
      return `did you mean ${fmt(pascal)} ${unit} (${fmt(pascal * factor)} Pa)? Then pass pressure_unit "${unit}".`;
  }
  return undefined;
}
