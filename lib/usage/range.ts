/**
 * How far back the usage pages look: 7, 30 or 90 quota days ending today. The choice travels as a URL
 * search parameter (?range=30), so a view is linkable and survives a reload; anything else reads as 7.
 */
import { quotaDayCalculator } from '../limits/quota-day.ts';

export const USAGE_RANGES = [7, 30, 90] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];
export const DEFAULT_USAGE_RANGE: UsageRange = 7;

/** A ?range= value as a UsageRange; missing, repeated, malformed or unlisted values give the default. */
export function parseUsageRange(raw: unknown): UsageRange {
  const value = Number(typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? raw : Number.NaN);
  return (USAGE_RANGES as readonly number[]).includes(value) ? (value as UsageRange) : DEFAULT_USAGE_RANGE;
}

const DAY_MS = 86_400_000;

/**
 * The instant quota day `day` ("YYYY-MM-DD") began in `timeZone`: the reset that ended the day before.
 * Midnight UTC of `day` lies in the local day before (zones west of UTC) or in `day` itself (east of it,
 * offsets under 24 h), so the day before is found at that instant or 24 hours earlier.
 */
export function quotaDayStart(timeZone: string, day: string): number {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const at = (t: number) => quotaDayCalculator(timeZone)(t);
  const probe = at(midnightUtc);
  return probe.day < day ? probe.resetsAt : at(midnightUtc - DAY_MS).resetsAt;
}
