/**
 * Temperature-dependent correlations stored with a compound: vapour-pressure equations and the
 * ideal-gas heat capacity. Each names its equation form exactly (coefficients are meaningless
 * without it), the range of temperatures its source fitted it over, and that source.
 *
 * Stored forms (convert other published forms into these when entering data):
 * - "antoine":     log10(P/bar) = A − B/(T/K + C)             (the NIST WebBook form)
 * - "wagner_25_5": ln(P/Pc) = (a·τ + b·τ^1.5 + c·τ^2.5 + d·τ^5)/Tr,  τ = 1 − Tr, Tr = T/Tc
 *                  (Poling et al. 5th ed., Eq. 7-3.3, with its own Tc in K and Pc in bar)
 * - "cp_poly4":    Cp°/R = a0 + a1·T + a2·T² + a3·T³ + a4·T⁴,  T in K   (Poling et al. App. A form,
 *                  coefficients stored already scaled, i.e. a1 not a1·10³)
 */
import { type Fail, isRecord } from './json-checks.ts';

export interface ValidRange {
  min: number;
  max: number;
  unit: 'K';
}

export interface AntoineCorrelation {
  equation: 'antoine';
  coefficients: { A: number; B: number; C: number };
  valid_range: ValidRange;
  source: string;
}

export interface WagnerCorrelation {
  equation: 'wagner_25_5';
  coefficients: { a: number; b: number; c: number; d: number };
  /** The critical constants the coefficients were fitted with (K, bar). */
  critical_temperature: number;
  critical_pressure: number;
  valid_range: ValidRange;
  source: string;
}

export type VaporPressureCorrelation = AntoineCorrelation | WagnerCorrelation;

export interface HeatCapacityCorrelation {
  equation: 'cp_poly4';
  coefficients: [number, number, number, number, number];
  valid_range: ValidRange;
  source: string;
}

export interface Correlations {
  /** Most accurate first; a tool uses the first whose range holds the temperature. */
  vapor_pressure?: readonly VaporPressureCorrelation[];
  ideal_gas_cp?: HeatCapacityCorrelation;
}

export const CORRELATION_FORMS = {
  antoine: 'log10(P/bar) = A − B/(T/K + C)',
  wagner_25_5: 'ln(P/Pc) = (a·τ + b·τ^1.5 + c·τ^2.5 + d·τ^5)/Tr, τ = 1 − T/Tc',
  cp_poly4: 'Cp°/R = a0 + a1·T + a2·T² + a3·T³ + a4·T⁴ (T in K)',
} as const;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function onlyFields(raw: Record<string, unknown>, allowed: string[], fail: Fail): void {
  for (const key of Object.keys(raw)) if (!allowed.includes(key)) fail(`unknown field "${key}"`);
}

function readRange(raw: unknown, fail: Fail): ValidRange {
  if (
    !isRecord(raw) ||
    !isNumber(raw.min) ||
    !isNumber(raw.max) ||
    raw.unit !== 'K' ||
    !(raw.min > 0 && raw.min < raw.max)
  ) {
    return fail('valid_range must be {min, max, unit: "K"} with 0 < min < max');
  }
  return { min: raw.min, max: raw.max, unit: 'K' };
}

function readNumbers<K extends string>(raw: unknown, names: readonly K[], fail: Fail): Record<K, number> {
  if (!isRecord(raw)) return fail(`coefficients must be an object with ${names.join(', ')}`);
  onlyFields(raw, [...names], fail);
  for (const name of names) if (!isNumber(raw[name])) fail(`coefficient ${name} must be a finite number`);
  return raw as Record<K, number>;
}

function readVaporPressure(raw: unknown, resolveSource: (id: unknown) => string, fail: Fail): VaporPressureCorrelation {
  if (!isRecord(raw)) return fail('not an object');
  const range = () => readRange(raw.valid_range, fail);
  if (raw.equation === 'antoine') {
    onlyFields(raw, ['equation', 'coefficients', 'valid_range', 'source'], fail);
    return {
      equation: 'antoine',
      coefficients: readNumbers(raw.coefficients, ['A', 'B', 'C'] as const, fail),
      valid_range: range(),
      source: resolveSource(raw.source),
    };
  }
  if (raw.equation === 'wagner_25_5') {
    onlyFields(
      raw,
      ['equation', 'coefficients', 'critical_temperature', 'critical_pressure', 'valid_range', 'source'],
      fail,
    );
    if (!isNumber(raw.critical_temperature) || !isNumber(raw.critical_pressure))
      fail('wagner_25_5 needs critical_temperature (K) and critical_pressure (bar)');
    return {
      equation: 'wagner_25_5',
      coefficients: readNumbers(raw.coefficients, ['a', 'b', 'c', 'd'] as const, fail),
      critical_temperature: raw.critical_temperature as number,
      critical_pressure: raw.critical_pressure as number,
      valid_range: range(),
      source: resolveSource(raw.source),
    };
  }
  return fail(`equation must be "antoine" or "wagner_25_5", got ${JSON.stringify(raw.equation)}`);
}

function readHeatCapacity(raw: unknown, resolveSource: (id: unknown) => string, fail: Fail): HeatCapacityCorrelation {
  if (!isRecord(raw)) return fail('not an object');
  onlyFields(raw, ['equation', 'coefficients', 'valid_range', 'source'], fail);
  if (raw.equation !== 'cp_poly4') fail(`equation must be "cp_poly4", got ${JSON.stringify(raw.equation)}`);
  const c = raw.coefficients;
  if (!Array.isArray(c) || c.length !== 5 || !c.every(isNumber))
    fail('coefficients must be five finite numbers [a0, a1, a2, a3, a4]');
  return {
    equation: 'cp_poly4',
    coefficients: c as HeatCapacityCorrelation['coefficients'],
    valid_range: readRange(raw.valid_range, fail),
    source: resolveSource(raw.source),
  };
}

/** Checks a compound's "correlations" object from a data file; sources are ids resolved to citations. */
export function readCorrelations(raw: unknown, resolveSource: (id: unknown) => string, fail: Fail): Correlations {
  if (!isRecord(raw)) return fail('"correlations" must be an object');
  onlyFields(raw, ['vapor_pressure', 'ideal_gas_cp'], fail);
  const out: Correlations = {};
  if (raw.vapor_pressure !== undefined) {
    if (!Array.isArray(raw.vapor_pressure) || raw.vapor_pressure.length === 0)
      fail('vapor_pressure must be a non-empty array');
    out.vapor_pressure = (raw.vapor_pressure as unknown[]).map((v, i) =>
      readVaporPressure(v, resolveSource, (m) => fail(`vapor_pressure[${i}]: ${m}`)),
    );
  }
  if (raw.ideal_gas_cp !== undefined)
    out.ideal_gas_cp = readHeatCapacity(raw.ideal_gas_cp, resolveSource, (m) => fail(`ideal_gas_cp: ${m}`));
  return out;
}
