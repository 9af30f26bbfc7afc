/**
 * The usage overview (/usage): each of the viewer's keys with its calls today and over the chosen range,
 * and the calls per tool over all of them. Only the viewer's own keys are read.
 */
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { displayKey } from '../keys/format.ts';
import { type KeyStatus, keyStatus } from '../keys/status.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { type CallCounts, type TodayAndRange, usageByKeyOfOwner, usageByToolOfOwner } from '../usage/owner-usage.ts';
import { daysEndingWith } from '../usage/queries.ts';
import { laterDay, type UsageRange } from '../usage/range.ts';
import type { Viewer } from './access.ts';
import { KEYS_SHOWN } from './keys.ts';

interface OverviewKeyRow extends TodayAndRange {
  id: string;
  name: string;
  display: string;
  status: KeyStatus;
}

const NONE: CallCounts = { successes: 0, failures: 0, rateLimited: 0 };

function add(a: CallCounts, b: CallCounts): CallCounts {
  return {
    successes: a.successes + b.successes,
    failures: a.failures + b.failures,
    rateLimited: a.rateLimited + b.rateLimited,
  };
}

export async function myUsageOverview(db: Db, viewer: Viewer, range: UsageRange, now = Date.now()) {
  const quotaDay = quotaDayCalculator(config().quotaTimeZone);
  const { day } = quotaDay(now);
  const oldest = await db.apiKey.findFirst({
    where: { ownerId: viewer.id },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true },
  });
  // The page speaks of the days since the account's oldest key when that is later than the range's start:
  // there were no calls before it. The sums still cover the whole range, so no number is ever left out.
  const [rangeStart] = daysEndingWith(day, range);
  const firstKeyDay = oldest ? quotaDay(oldest.createdAt.getTime()).day : rangeStart;
  // A key dated after today (the clock was moved back since) still leaves today to speak of.
  const fromDay = firstKeyDay > day ? day : laterDay(rangeStart, firstKeyDay);
  const [keys, total, byKey, tools] = await Promise.all([
    db.apiKey.findMany({
      where: { ownerId: viewer.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: KEYS_SHOWN,
    }),
    db.apiKey.count({ where: { ownerId: viewer.id } }),
    usageByKeyOfOwner(db, viewer.id, rangeStart, day),
    usageByToolOfOwner(db, viewer.id, rangeStart, day),
  ]);
  const allKeys = [...byKey.values()].reduce(
    (sum, k) => ({ today: add(sum.today, k.today), range: add(sum.range, k.range) }),
    { today: NONE, range: NONE },
  );
  return {
    range,
    /** The range's first day, and the first day counted: the day the oldest key was made when that is later. */
    rangeStart,
    fromDay,
    today: day,
    /** The newest KEYS_SHOWN keys; `totalKeys` says how many there are. */
    keys: keys.map(
      (key): OverviewKeyRow => ({
        id: key.id,
        name: key.name,
        display: displayKey(key),
        status: keyStatus(key, now),
        ...(byKey.get(key.id) ?? { today: NONE, range: NONE }),
      }),
    ),
    totalKeys: total,
    tools,
    /** Over every key, also those past the newest KEYS_SHOWN. */
    allKeys,
  };
}
