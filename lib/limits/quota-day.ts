/**
 * Quota days are calendar days in one time zone (QUOTA_TIMEZONE, UTC by default). The current day and
 * the instant of the next reset are computed once per day, not per call: Intl formatting costs
 * microseconds that the hot path should not pay.
 */
export interface QuotaDay {
  /** "YYYY-MM-DD" in the quota time zone. */
  day: string;
  /** Epoch milliseconds of the next local midnight (the reset). */
  resetsAt: number;
}

const HOUR = 3_600_000;

export function quotaDayCalculator(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dayOf = (t: number) => format.format(t); // en-CA formats as YYYY-MM-DD

  function nextReset(now: number, day: string): number {
    // Step an hour at a time to a later day, then bisect to the millisecond: local midnight need not fall on
    // a UTC hour (UTC+05:45) and DST moves it, so no fixed offset is assumed.
    let low = now;
    let high = now + HOUR;
    while (dayOf(high) === day) {
      low = high;
      high += HOUR;
    }
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (dayOf(mid) === day) low = mid;
      else high = mid;
    }
    return high;
  }

  // Valid for instants between when it was computed (known to be inside the day) and the reset.
  let current: QuotaDay | undefined;
  let computedAt = 0;
  return function quotaDay(now: number): QuotaDay {
    if (current && now < current.resetsAt && now >= computedAt) return current;
    const day = dayOf(now);
    current = { day, resetsAt: nextReset(now, day) };
    computedAt = now;
    return current;
  };
}
