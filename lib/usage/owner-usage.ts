/**
 * One developer's usage across all their keys, for the usage overview: each key's calls today and over a
 * range of quota days, and the same per tool over all their keys. Counts are per key (the calls made
 * with that key's own secret), so the rows add up to the totals; a key's page counts its whole reissue
 * chain instead.
 */
import type { Db } from '../db/client.ts';
import type { ToolUsage } from './queries.ts';

export interface CallCounts {
  successes: number;
  failures: number;
  rateLimited: number;
}

export interface TodayAndRange {
  today: CallCounts;
  range: CallCounts;
}

/** Calls of one owner's keys between two quota days (inclusive), summed per `by` column. */
async function sumsBy(db: Db, by: 'keyId' | 'tool', ownerId: string, fromDay: string, toDay: string) {
  const groups = await db.dailyUsage.groupBy({
    by: [by],
    where: { key: { ownerId }, day: { gte: fromDay, lte: toDay } },
    _sum: { successes: true, failures: true, rateLimited: true },
  });
  return new Map<string, CallCounts>(
    groups.map((g) => [
      // Prisma cannot type a group over a column chosen at run time; `by` is one of the grouped columns.
      String(g[by as keyof typeof g]),
      { successes: g._sum.successes ?? 0, failures: g._sum.failures ?? 0, rateLimited: g._sum.rateLimited ?? 0 },
    ]),
  );
}

const NONE: CallCounts = { successes: 0, failures: 0, rateLimited: 0 };

/** Today's and the range's calls per key id (keys without calls are absent: read them as zero). */
export async function usageByKeyOfOwner(
  db: Db,
  ownerId: string,
  fromDay: string,
  today: string,
): Promise<Map<string, TodayAndRange>> {
  const [onDay, overRange] = await Promise.all([
    sumsBy(db, 'keyId', ownerId, today, today),
    sumsBy(db, 'keyId', ownerId, fromDay, today),
  ]);
  return new Map([...overRange].map(([keyId, range]) => [keyId, { today: onDay.get(keyId) ?? NONE, range }] as const));
}

/** Today's and the range's calls per tool over all the owner's keys, by tool name. */
export async function usageByToolOfOwner(
  db: Db,
  ownerId: string,
  fromDay: string,
  today: string,
): Promise<(TodayAndRange & Pick<ToolUsage, 'tool'>)[]> {
  const [onDay, overRange] = await Promise.all([
    sumsBy(db, 'tool', ownerId, today, today),
    sumsBy(db, 'tool', ownerId, fromDay, today),
  ]);
  return [...overRange]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tool, range]) => ({ tool, today: onDay.get(tool) ?? NONE, range }));
}
