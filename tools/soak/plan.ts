/**
 * What the soak sends: the keys (free keys at the free tier's 1/s, and keys whose per-key quota is small
 * enough to run out during the run) and the mix of tools/call bodies, each with the outcome it must have.
 */

export interface PlannedKey {
  label: string;
  ratePerSecond: number;
  dailyQuota: number;
  /** Whether the key gets per-key overrides (otherwise it is a plain free key with the tier's limits). */
  override: boolean;
}

export const FREE_TIER = { ratePerSecond: 1, dailyQuota: 1000 };

/** Share of the keys with a small quota; the rest are plain free keys. */
const QUOTA_KEY_SHARE = 0.4;
const QUOTA_KEY_RATES = [1, 2, 3];
/** When in the run each quota key should run out (fraction of the duration), spread over the run. */
const QUOTA_RUN_OUT_AT = [0.2, 0.35, 0.5, 0.65, 0.8];

export function planKeys(count: number, durationSeconds: number): PlannedKey[] {
  const quotaKeys = Math.round(count * QUOTA_KEY_SHARE);
  return Array.from({ length: count }, (_, i) => {
    if (i >= quotaKeys) return { label: `free ${i - quotaKeys + 1}`, ...FREE_TIER, override: false };
    const ratePerSecond = QUOTA_KEY_RATES[i % QUOTA_KEY_RATES.length];
    const runOutAt = QUOTA_RUN_OUT_AT[i % QUOTA_RUN_OUT_AT.length];
    return {
      label: `quota ${i + 1}`,
      ratePerSecond,
      dailyQuota: Math.max(5, Math.round(ratePerSecond * durationSeconds * runOutAt)),
      override: true,
    };
  });
}

export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
  /** "ok" for a successful result, else the `error` code of the isError result. */
  expect: 'ok' | string;
}

/** Known tools with good arguments, a missing compound, bad arguments and an unknown tool. */
export const CALL_MIX: PlannedCall[] = [
  { name: 'service_query_compound', arguments: { compound_name: 'water' }, expect: 'ok' },
  { name: 'service_query_compound', arguments: { compound_name: 'ethanol' }, expect: 'ok' },
  { name: 'service_query_compound', arguments: { compound_name: 'benzene' }, expect: 'ok' },
  { name: 'service_query_compound', arguments: { compound_name: 'unobtainium soak' }, expect: 'compound_not_found' },
  { name: 'service_query_compound', arguments: {}, expect: 'invalid_arguments' },
  { name: 'service_convert_units', arguments: { value: 1, from_unit: 'atm', to_unit: 'kPa' }, expect: 'ok' },
  { name: 'service_formula_info', arguments: { formula: 'CuSO4·5H2O' }, expect: 'ok' },
  { name: 'service_boiling_point', arguments: { compound_name: 'water', pressure: 1, unit: 'atm' }, expect: 'ok' },
  { name: 'service_no_such_tool', arguments: {}, expect: 'unknown_tool' },
];

/** Calls sent per second per key, relative to its limit: a bit above, so 429 rate_per_second answers occur. */
export const OVERDRIVE = 1.25;
