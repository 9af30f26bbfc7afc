/**
 * What the portal and `key show` display for a key: today's calls per tool, a 7-day trend and the last
 * calls. Days are quota days (see lib/limits/quota-day.ts).
 */
import type { Db } from '../db/client.ts';

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
    new Date(Date.UTC(y, m - 1, d - (count - 1 - i))).toISOString().slice(0, 10));
}

/**
 * A backstop only: usage is recorded under the catalogue's tool names or 'unknown_tool' (lib/mcp/registry.ts
 * toolLabel, and a migration rewrote older rows), so a key has at most 13 rows a day.
 */
const MAX_TOOL_ROWS = 100;

export async function usageByTool(db: Db, keyId: string, day: string): Promise<ToolUsage[]> {
  const rows = await db.dailyUsage.findMany({ where: { keyId, day }, orderBy: { tool: 'asc' }, take: MAX_TOOL_ROWS });
  return rows.map(({ tool, successes, failures, rateLimited }) => ({ tool, successes, failures, rateLimited }));
}

/** Per-day totals, one entry per day even when nothing was called. */
export async function dailyTrend(db: Db, keyId: string, today: string, days = 7): Promise<DayUsage[]> {
  const range = daysEndingWith(today, days);
  const groups = await db.dailyUsage.groupBy({
    by: ['day'],
    where: { keyId, day: { gte: range[0], lte: today } },
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

export async function lastCalls(db: Db, keyId: string, limit = 10) {
  return db.callLog.findMany({
    where: { keyId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
    select: { requestId: true, tool: true, outcome: true, errorCode: true, latencyMs: true, createdAt: true },
  });
}
