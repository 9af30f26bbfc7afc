/**
 * Units of measurement: a registry of the units of ./unit-table.ts, found by any accepted spelling, and
 * conversions between them.
 *
 * A unit converts to SI as SI = (value + offset)·factor; only the temperature scales °C and °F have
 * an offset. Temperatures here are absolute temperatures, not temperature differences: 10 °C is
 * 283.15 K. Inside compound units (J/(mol·°C)) a degree is an interval, as NIST SP 811 §4.2.1.1 reads it.
 *
 * Gauge pressures (psig, barg) are refused: they depend on the local atmospheric pressure.
 */

import { editDistance } from './edit-distance.ts';
import { ToolError } from './tool.ts';
import { DIMENSIONS, type Dimension, SI_UNITS, UNIT_TABLE } from './unit-table.ts';

interface UnitInfo {
  /** Canonical symbol, as results print it. */
  symbol: string;
  dimension: Dimension;
  /** SI value = (value + offset) · factor. */
  factor: number;
  offset: number;
  /** Other spellings accepted for this unit. */
  aliases: readonly string[];
  /** True when the definition in SI is exact (up to binary floating point). */
  exact: boolean;
  /** The definition in words, for the units that need one. */
  note?: string;
}

/**
 * The lookup key of a spelling: Unicode-normalised (², ³, ⁻¹, µ, ℃ become ASCII), degree signs
 * dropped, and every multiplication sign (·, ⋅, *, ×, ".", space) made ".", so "J/(mol K)",
 * "J/(mol·K)" and "J/(mol*K)" are one key.
 */
function unitKey(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[µμ]/g, 'u')
    .replace(/[−–—]/g, '-')
    .replace(/[°º˚]/g, '')
    .replace(/\^/g, '')
    .trim()
    .replace(/\s*[·⋅•∙*×.]\s*/g, '.')
    .replace(/\s*([/()])\s*/g, '$1')
    .replace(/\s+/g, '.');
}

const UNITS: UnitInfo[] = [];
const byKey = new Map<string, UnitInfo>();
const byLowerKey = new Map<string, Set<UnitInfo>>();

for (const dimension of DIMENSIONS) {
  for (const [symbol, factor, aliases = [], extra = {}] of UNIT_TABLE[dimension]) {
    const info: UnitInfo = {
      symbol,
      dimension,
      factor,
      offset: extra.offset ?? 0,
      aliases: aliases.filter((a) => a !== symbol),
      exact: extra.exact ?? true,
      ...(extra.note ? { note: extra.note } : {}),
    };
    UNITS.push(info);
    for (const spelling of [symbol, ...aliases]) {
      const key = unitKey(spelling);
      const taken = byKey.get(key);
      if (taken && taken !== info)
        throw new Error(`unit spelling "${spelling}" is claimed by ${taken.symbol} and ${symbol}`);
      byKey.set(key, info);
      const lower = key.toLowerCase();
      byLowerKey.set(lower, (byLowerKey.get(lower) ?? new Set()).add(info));
    }
  }
}

function acceptedList(dimension: Dimension): string {
  return UNITS.filter((u) => u.dimension === dimension)
    .map((u) => u.symbol)
    .join(', ');
}

function describeDimension(dimension: Dimension): string {
  return dimension.replace(/_/g, ' ');
}

/**
 * The unit a spelling names. Case matters first (MPa is not mPa); a spelling that matches one unit
 * only when case is ignored ("KPA", "mmhg") is accepted too.
 */
export function findUnit(unit: string, dimension?: Dimension): UnitInfo {
  const key = unitKey(unit);
  const found = byKey.get(key) ?? single(byLowerKey.get(key.toLowerCase()));
  if (found) return found;
  throw unsupported(unit, key, dimension);
}

function single(set: Set<UnitInfo> | undefined): UnitInfo | undefined {
  return set && set.size === 1 ? [...set][0] : undefined;
}

function unsupported(unit: string, key: string, dimension?: Dimension): ToolError {
  const where = dimension
    ? `Accepted ${describeDimension(dimension)} units: ${acceptedList(dimension)}.`
    : `Accepted units: ${DIMENSIONS.map((d) => `${describeDimension(d)} (${acceptedList(d)})`).join('; ')}.`;
  if (key === '')
    return new ToolError('unsupported_unit', `The unit is empty. ${where}`, {
      unit,
      ...(dimension ? { dimension } : {}),
    });

  const gauge = /^(.*?)\.?\(?g\)?$/i.exec(key);
  const absolute =
    gauge && gauge[1] !== '' ? (single(byLowerKey.get(gauge[1].toLowerCase())) ?? byKey.get(gauge[1])) : undefined;
  if (absolute?.dimension === 'pressure') {
    return new ToolError(
      'unsupported_unit',
      `"${unit}" is a gauge pressure, which depends on the local atmospheric pressure; give the absolute pressure instead (${absolute.symbol}, i.e. gauge + atmospheric: 1 atm = 101.325 kPa = 14.696 psi at sea level).`,
      { unit, suggestions: [absolute.symbol] },
    );
  }

  const lower = key.toLowerCase();
  const limit = lower.length <= 3 ? 1 : 2;
  const scored: { symbol: string; distance: number }[] = [];
  for (const [spelling, infos] of byLowerKey) {
    const distance = editDistance(lower, spelling, limit);
    if (distance > limit) continue;
    for (const info of infos)
      if (!dimension || info.dimension === dimension) scored.push({ symbol: info.symbol, distance });
  }
  scored.sort((a, b) => a.distance - b.distance);
  const suggestions = [...new Set(scored.map((s) => s.symbol))].slice(0, 5);
  const didYouMean = suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : '';
  return new ToolError('unsupported_unit', `Unknown unit "${unit}".${didYouMean} ${where}`, {
    unit,
    suggestions,
    ...(dimension ? { dimension, accepted: acceptedList(dimension).split(', ') } : {}),
  });
}

function knownUnit(unit: string): UnitInfo | undefined {
  try {
    return findUnit(unit);
  } catch (error) {
    if (error instanceof ToolError) return undefined;
    throw error;
  }
}

/** The dimension a unit measures ("bar" → pressure); throws unsupported_unit for an unknown unit. */
export function unitDimension(unit: string): Dimension {
  return findUnit(unit).dimension;
}

/** Every accepted unit, or those of one dimension, in table order (SI unit first). */
export function listUnits(dimension?: Dimension): UnitInfo[] {
  return UNITS.filter((u) => !dimension || u.dimension === dimension).map((u) => ({ ...u, aliases: [...u.aliases] }));
}

function unitOf(unit: string, dimension: Dimension): UnitInfo {
  const info = findUnit(unit, dimension);
  if (info.dimension !== dimension) {
    throw new ToolError(
      'incompatible_units',
      `${info.symbol} is a ${describeDimension(info.dimension)} unit, but a ${describeDimension(dimension)} unit is expected here. Accepted ${describeDimension(dimension)} units: ${acceptedList(dimension)}.`,
      { unit, unit_dimension: info.dimension, expected_dimension: dimension },
    );
  }
  return info;
}

/** Absolute temperatures below 0 K do not exist; every conversion of one checks. */
function checkTemperature(kelvin: number, value: number, unit: string): void {
  if (kelvin < 0) {
    throw new ToolError(
      'out_of_range',
      `${value} ${unit} is below absolute zero (0 K = −273.15 °C = −459.67 °F = 0 R).`,
      { value, unit },
    );
  }
}

function checkFinite(value: number): void {
  if (!Number.isFinite(value))
    throw new ToolError('invalid_arguments', `The value to convert must be a finite number, not ${value}.`);
}

/**
 * value in `unit` → the same quantity in the dimension's SI unit (SI_UNITS), e.g.
 * toSI(25, '°C', 'temperature') = 298.15 (K); toSI(1, 'atm', 'pressure') = 101325 (Pa).
 * Throws unsupported_unit, incompatible_units (unit of another dimension), out_of_range (below 0 K).
 */
export function toSI(value: number, unit: string, dimension: Dimension): number {
  checkFinite(value);
  const info = unitOf(unit, dimension);
  const si = (value + info.offset) * info.factor;
  if (dimension === 'temperature') checkTemperature(si, value, info.symbol);
  return si;
}

/** value in the dimension's SI unit → the same quantity in `unit`; fromSI(298.15, '°C', 'temperature') = 25. */
export function fromSI(value: number, unit: string, dimension: Dimension): number {
  checkFinite(value);
  const info = unitOf(unit, dimension);
  if (dimension === 'temperature') checkTemperature(value, value, SI_UNITS.temperature);
  return value / info.factor - info.offset;
}

interface Conversion {
  value: number;
  /** Canonical symbols of the units, as understood. */
  from: string;
  to: string;
  dimension: Dimension;
  /** result = value · factor + offset; offset only between temperature scales with different zeros. */
  factor: number;
  offset?: number;
  /** Both units are defined exactly in SI. */
  exact: boolean;
}

/**
 * Binary floating point leaves residue in the 16th digit (1 atm → 14.695948775513449 psi); results
 * are rounded to 15 significant digits, beyond any measured quantity's precision. Between
 * temperature scales the subtraction of offsets cancels digits (−40 °C → −40.00000000000006 °F), so
 * the rounding is at 15 digits of the largest term involved (`magnitude`), not of the result.
 */
function round15(x: number, magnitude = 0): number {
  const scale = Math.max(Math.abs(x), magnitude);
  if (scale === 0) return 0;
  const decimals = 14 - Math.floor(Math.log10(scale));
  return decimals >= 0 && decimals <= 100 ? Number(x.toFixed(decimals)) : Number(x.toPrecision(15));
}

/**
 * Converts value from one unit to another of the same dimension, e.g. convert(1, 'atm', 'psi') =
 * {value: 14.6959487755134, factor: 14.6959487755134, ...}; convert(-40, 'C', 'F').value = −40.
 * Throws unsupported_unit, incompatible_units ("cannot convert bar (pressure) to K (temperature)"),
 * out_of_range (a temperature below absolute zero).
 */
export function convert(value: number, fromUnit: string, toUnit: string): Conversion {
  checkFinite(value);
  // An unknown unit is reported with the accepted units of the other unit's dimension, when that one is known.
  const from = knownUnit(fromUnit) ?? findUnit(fromUnit, knownUnit(toUnit)?.dimension);
  const to = findUnit(toUnit, from.dimension);
  if (from.dimension !== to.dimension) {
    throw new ToolError(
      'incompatible_units',
      `Cannot convert ${from.symbol} (${describeDimension(from.dimension)}) to ${to.symbol} (${describeDimension(to.dimension)}): the units measure different quantities.`,
      { from: from.symbol, from_dimension: from.dimension, to: to.symbol, to_dimension: to.dimension },
    );
  }
  const si = (value + from.offset) * from.factor;
  if (from.dimension === 'temperature') checkTemperature(si, value, from.symbol);
  const factor = from.factor / to.factor;
  const offset = from.offset * factor - to.offset;
  return {
    value: round15(si / to.factor - to.offset, Math.max(Math.abs(si / to.factor), to.offset)),
    from: from.symbol,
    to: to.symbol,
    dimension: from.dimension,
    factor: round15(factor),
    ...(offset !== 0 ? { offset: round15(offset, Math.max(Math.abs(from.offset * factor), to.offset)) } : {}),
    exact: from.exact && to.exact,
  };
}
