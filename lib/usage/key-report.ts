/**
 * Everything shown about one key ("my key and usage"): settings, effective limits, today's calls per
 * tool, the trend over a range of days (7 by default), the last 10 calls and the calls refused once it
 * stopped working. Used by `key show` and the portal.
 */
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { ApiKey } from '../db/generated/sqlite/client.ts';
import { displayKey } from '../keys/format.ts';
import { disabledBy, keyStatus } from '../keys/status.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { failureCodes } from './failure-codes.ts';
import { dailyTrend, daysEndingWith, lastCalls, usageByTool } from './queries.ts';
import { DEFAULT_USAGE_RANGE, quotaDayStart, type UsageRange } from './range.ts';
import { refusedReport } from './refused-report.ts';

export async function keyReport(db: Db, key: ApiKey, now = Date.now(), range: UsageRange = DEFAULT_USAGE_RANGE) {
  const tier = await db.tier.findUniqueOrThrow({ where: { id: key.tierId } });
  const owner = await db.user.findUniqueOrThrow({ where: { id: key.ownerId }, select: { email: true } });
  const zone = config().quotaTimeZone;
  const quotaDay = quotaDayCalculator(zone);
  const { day, resetsAt } = quotaDay(now);
  const [rangeStart, todayStart] = [daysEndingWith(day, range)[0], day].map((d) => new Date(quotaDayStart(zone, d)));
  // Usage is the allowance's (every key of the reissue chain), the same count the limiter admits against.
  const [today, trend, calls, lineageKeys, predecessor, refused, first, failures] = await Promise.all([
    usageByTool(db, key.lineageId, day),
    dailyTrend(db, key.lineageId, day, range),
    lastCalls(db, key.lineageId, 10),
    db.apiKey.count({ where: { lineageId: key.lineageId } }),
    db.apiKey.findUnique({ where: { replacedById: key.id } }),
    refusedReport(db, key.id, key.lineageId, day),
    db.apiKey.findFirst({
      where: { lineageId: key.lineageId },
      orderBy: { createdAt: 'asc' },
      select: { createdAt: true },
    }),
    failureCodes(db, key.lineageId, rangeStart, todayStart, now),
  ]);
  // The end of a grace period: the moment a replaced secret stops, while it is still ahead.
  const graceEnd = (k: ApiKey | null) =>
    k?.replacedById && k.disabledAt && k.disabledAt.getTime() > now ? k.disabledAt.toISOString() : null;
  const predecessorWorksUntil = graceEnd(predecessor);
  const dailyQuota = key.dailyQuota ?? tier.dailyQuota;
  const usedToday = today.reduce((sum, t) => sum + t.successes + t.failures, 0);
  return {
    id: key.id,
    name: key.name,
    display: displayKey(key),
    owner: owner.email,
    status: keyStatus(key, now),
    tier: tier.id,
    dailyQuota,
    ratePerSecond: key.ratePerSecond ?? tier.ratePerSecond,
    /** The tier's own limits, and whether staff set this key's limits instead (so the owner can be told). */
    tierLimits: { dailyQuota: tier.dailyQuota, ratePerSecond: tier.ratePerSecond },
    limitsSetForKey: { dailyQuota: key.dailyQuota !== null, ratePerSecond: key.ratePerSecond !== null },
    usedToday,
    remainingToday: Math.max(0, dailyQuota - usedToday),
    quotaDay: day,
    quotaResetsAt: new Date(resetsAt).toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    disabledAt: key.disabledAt?.toISOString() ?? null,
    disabledReason: key.disabledReason,
    disabledBy: disabledBy(key, now),
    replacedById: key.replacedById,
    /** A replaced key still in its grace period: when its secret stops working (ISO), else null. */
    worksUntil: graceEnd(key),
    /** The key this one replaced, while its old secret still works (grace period), else null. */
    predecessor:
      predecessor && predecessorWorksUntil
        ? { id: predecessor.id, display: displayKey(predecessor), worksUntil: predecessorWorksUntil }
        : null,
    /** How many keys (this one included) share this key's allowance through reissues. */
    lineageKeys,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    /** Requests refused today because a secret of this key's chain no longer works. */
    refusedToday: refused.today,
    refused,
    createdAt: key.createdAt.toISOString(),
    today,
    /** The trend's length in quota days, and how far back the call log (and so its CSV export) reaches. */
    range: { days: range, callLogRetentionDays: config().callLogRetentionDays },
    trend,
    /** Failed calls per error code, today and over the range (read from the call log: at most its retention). */
    failureCodes: failures,
    /** The quota day the allowance began (its reissue chain's first key was made): the portal's chart starts there. */
    startedOn: quotaDay((first ?? key).createdAt.getTime()).day,
    // A call made with another secret of the chain names it, so an owner sees an old secret still in use.
    lastCalls: calls.map(({ key: madeWith, ...c }) => ({
      ...c,
      createdAt: c.createdAt.toISOString(),
      otherKey: madeWith.id === key.id ? null : { id: madeWith.id, display: displayKey(madeWith) },
    })),
  };
}

export type KeyReport = Awaited<ReturnType<typeof keyReport>>;
