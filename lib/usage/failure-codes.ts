/**
 * A key's failed calls grouped by error code, today and over the chosen range: the last 10 calls show
 * why only those failed, so "18 of 34 failed" needs the codes of all 18. Daily totals keep no codes, so
 * this reads the call log (kept CALL_LOG_RETENTION_DAYS) over the allowance's keys, through its
 * (keyId, createdAt) index.
 *
 * The usage panels ask every 5 s. Today's part is read each time; the days before today no longer
 * change, so their counts are kept in memory until the day turns, and a busy key's 90 days are read
 * once a day rather than on every poll.
 */
import type { Db } from '../db/client.ts';

interface FailureCodeCount {
  /** The error code the call failed with; calls recorded without one are counted under NO_CODE. */
  code: string;
  today: number;
  range: number;
}

const NO_CODE = '(none)';

type Counts = Map<string, number>;

async function failuresByCode(db: Db, lineageId: string, from: Date, before?: Date): Promise<Counts> {
  const groups = await db.callLog.groupBy({
    by: ['errorCode'],
    where: {
      key: { lineageId },
      outcome: 'failure',
      createdAt: before ? { gte: from, lt: before } : { gte: from },
    },
    _count: { _all: true },
  });
  return new Map(groups.map((g) => [g.errorCode ?? NO_CODE, g._count._all]));
}

/** Calls are written up to a second or so after they end: a day's counts are cached once it is safely over. */
const SETTLED_MS = 60_000;
const PAST_DAYS_KEPT = 1_000;
const pastDays = new Map<string, Counts>();

async function pastFailures(db: Db, lineageId: string, rangeStart: Date, todayStart: Date, now: number) {
  const id = `${lineageId} ${rangeStart.getTime()} ${todayStart.getTime()}`;
  const cached = pastDays.get(id);
  if (cached) return cached;
  const counts = await failuresByCode(db, lineageId, rangeStart, todayStart);
  if (now - todayStart.getTime() >= SETTLED_MS) {
    // Oldest first out: a Map iterates in insertion order.
    if (pastDays.size >= PAST_DAYS_KEPT) pastDays.delete(pastDays.keys().next().value as string);
    pastDays.set(id, counts);
  }
  return counts;
}

/**
 * The allowance's failures per error code: today (since `todayStart`) and over the range (since
 * `rangeStart`), most frequent over the range first, then by code.
 */
export async function failureCodes(
  db: Db,
  lineageId: string,
  rangeStart: Date,
  todayStart: Date,
  now = Date.now(),
): Promise<FailureCodeCount[]> {
  const [today, past] = await Promise.all([
    failuresByCode(db, lineageId, todayStart),
    pastFailures(db, lineageId, rangeStart, todayStart, now),
  ]);
  const codes = new Set([...today.keys(), ...past.keys()]);
  return [...codes]
    .map((code) => ({ code, today: today.get(code) ?? 0, range: (today.get(code) ?? 0) + (past.get(code) ?? 0) }))
    .sort((a, b) => b.range - a.range || a.code.localeCompare(b.code));
}
