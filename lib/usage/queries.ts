/**
 * What the portal and `key show` display for a key: today's calls per tool, a 7-day trend and the last
 * calls. Days are quota days (see lib/limits/quota-day.ts). Each covers a whole allowance (a lineage:
 * every key of one reissue chain), the unit the limiter counts, so a reissued key's numbers include the
 * calls made with its earlier secrets.
 */
import { join } from '@prisma/client/runtime/client';
import type { Db } from '../db/client.ts';
import { LIMIT_REASONS, type LimitReason } from './refused-calls.ts';

export interface ToolUsage {
  tool: string;
  successes: number;
  failures: number;
  rateLimited: number;
}

export interface DayUsage {
  day: string;
  successes: number;
  failures: number;
  rateLimited: number;
}

/** The `count` calendar days ending with `lastDay` ("YYYY-MM-DD"), oldest first. */
export function daysEndingWith(lastDay: string, count: number): string[] {
  const [y, m, d] = lastDay.split('-').map(Number);
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(y, m - 1, d - (count - 1 - i))).toISOString().slice(0, 10),
  );
}

/**
 * A backstop only: usage is recorded under the catalogue's tool names or 'unknown_tool' (lib/mcp/registry.ts
 * toolLabel, and a migration rewrote older rows), so an allowance has at most 13 rows a day.
 */
const MAX_TOOL_ROWS = 100;

export async function usageByTool(db: Db, lineageId: string, day: string): Promise<ToolUsage[]> {
  const groups = await db.dailyUsage.groupBy({
    by: ['tool'],
    where: { key: { lineageId }, day },
    _sum: { successes: true, failures: true, rateLimited: true },
    orderBy: { tool: 'asc' },
    take: MAX_TOOL_ROWS,
  });
  return groups.map(({ tool, _sum }) => ({
    tool,
    successes: _sum.successes ?? 0,
    failures: _sum.failures ?? 0,
    rateLimited: _sum.rateLimited ?? 0,
  }));
}

/** Per-day totals, one entry per day even when nothing was called. */
export async function dailyTrend(db: Db, lineageId: string, today: string, days = 7): Promise<DayUsage[]> {
  const range = daysEndingWith(today, days);
  const groups = await db.dailyUsage.groupBy({
    by: ['day'],
    where: { key: { lineageId }, day: { gte: range[0], lte: today } },
    _sum: { successes: true, failures: true, rateLimited: true },
  });
  const byDay = new Map(groups.map((g) => [g.day, g._sum]));
  return range.map((day) => ({
    day,
    successes: byDay.get(day)?.successes ?? 0,
    failures: byDay.get(day)?.failures ?? 0,
    rateLimited: byDay.get(day)?.rateLimited ?? 0,
  }));
}

/**
 * How many of a chain's newest keys the last calls are read from. A key stops taking calls when it is
 * replaced, so older keys' calls all precede these keys' (the limit of this bound: the calls of a key
 * more than this many reissues back are not shown, which matters only if that many reissues happened
 * within the last few calls).
 */
const LAST_CALLS_KEYS = 10;

/** The error code a 429 answer carries, by the limit that refused the call. */
export const LIMIT_ERROR_CODES: Record<LimitReason, string> = {
  daily_quota: 'daily_quota_exceeded',
  rate_per_second: 'rate_limit_exceeded',
};

/**
 * The newest calls of the allowance, each with the key (secret) it was made with: each key's newest
 * admitted calls in the order of its (keyId, createdAt) index, and the newest calls a limit refused (kept
 * as a sample, REFUSED_CALLS_KEPT per key and reason, by refused-calls.ts), merged. One query over the
 * whole lineage's call log ordered by time would read every call of its keys and sort them, for every
 * poll of the usage panels.
 */
export async function lastCalls(db: Db, lineageId: string, limit = 10) {
  const keys = await db.apiKey.findMany({
    where: { lineageId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: LAST_CALLS_KEYS,
    select: { id: true, start: true, end: true },
  });
  const byId = new Map(keys.map((key) => [key.id, key]));
  const [admitted, refused] = await Promise.all([
    Promise.all(
      keys.map(async (key) => {
        const calls = await db.callLog.findMany({
          where: { keyId: key.id },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: limit,
          select: {
            id: true,
            requestId: true,
            tool: true,
            outcome: true,
            errorCode: true,
            latencyMs: true,
            createdAt: true,
          },
        });
        return calls.map(({ id, ...call }) => ({ ...call, order: id, key }));
      }),
    ),
    db.refusedCall.findMany({
      where: { keyId: { in: [...byId.keys()] }, reason: { in: [...LIMIT_REASONS] } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    }),
  ]);
  // A limit's refusals are always written with their tool and request id (refused-calls.ts).
  const limited = refused.map((r) => ({
    requestId: r.requestId ?? '',
    tool: r.tool ?? '',
    outcome: 'rate_limited',
    errorCode: LIMIT_ERROR_CODES[r.reason as LimitReason],
    latencyMs: 0,
    createdAt: r.createdAt,
    order: r.id,
    key: byId.get(r.keyId)!,
  }));
  return [...admitted.flat(), ...limited]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.order - a.order)
    .slice(0, limit)
    .map(({ order, ...call }) => call);
}

/**
 * A day's use (successes + failures) of each given allowance: one row per lineage however many keys a
 * chain has (Prisma's groupBy cannot group by a related column, hence the SQL).
 */
export async function usedOnDayByLineage(db: Db, lineageIds: string[], day: string): Promise<Map<string, number>> {
  if (!lineageIds.length) return new Map();
  // IN (subquery): DailyUsage is read by its primary key (key, day), as in USED_ON_DAY_SQL.
  const rows = await db.$queryRaw<{ lineageId: string; used: bigint | number }[]>`
    SELECT k."lineageId" AS "lineageId", SUM(u."successes" + u."failures") AS "used"
      FROM "DailyUsage" u JOIN "ApiKey" k ON k."id" = u."keyId"
     WHERE u."keyId" IN (SELECT "id" FROM "ApiKey" WHERE "lineageId" IN (${join(lineageIds)})) AND u."day" = ${day}
     GROUP BY k."lineageId"`;
  return new Map(rows.map((r) => [r.lineageId, Number(r.used)]));
}
