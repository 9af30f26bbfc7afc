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

/**
 * The days of a trend worth drawing: from the day its allowance (or, account-wide, the oldest key) began,
 * not the whole range, so a key made today shows one day rather than 89 empty ones. A day with calls
 * before that day (only seeded data has them) is kept, with everything after it: numbers are never hidden.
 */
export function trendSince<T extends { day: string; successes: number; failures: number; rateLimited: number }>(
  trend: T[],
  startedOn: string,
): T[] {
  const firstCalled = trend.find((d) => d.successes + d.failures + d.rateLimited > 0)?.day;
  const from = firstCalled && firstCalled < startedOn ? firstCalled : startedOn;
  const shown = trend.filter((d) => d.day >= from);
  // A start after the trend's last day cannot happen for a real key; then the last day still shows.
  return shown.length ? shown : trend.slice(-1);
}

/** The later of two "YYYY-MM-DD" days: where a range that may begin before something existed should start. */
export function laterDay(a: string, b: string): string {
  return a > b ? a : b;
}
