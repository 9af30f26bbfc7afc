/** What the server's usage tables hold per key at the end of the soak (both tables, to compare them). */
import type { Db } from '../../lib/db/client.ts';
import type { RecordedUsage } from './verdict.ts';

export async function recordedUsage(db: Db): Promise<Map<string, RecordedUsage>> {
  const usage = new Map<string, RecordedUsage>();
  const entry = (keyId: string) => {
    if (!usage.has(keyId)) usage.set(keyId, { admitted: 0, rateLimited: 0, callLogAdmitted: 0 });
    return usage.get(keyId)!;
  };
  const daily = await db.dailyUsage.groupBy({
    by: ['keyId'],
    _sum: { successes: true, failures: true, rateLimited: true },
  });
  for (const row of daily) {
    entry(row.keyId).admitted += (row._sum.successes ?? 0) + (row._sum.failures ?? 0);
    entry(row.keyId).rateLimited += row._sum.rateLimited ?? 0;
  }
  const calls = await db.callLog.groupBy({
    by: ['keyId'],
    where: { outcome: { not: 'rate_limited' } },
    _count: { _all: true },
  });
  for (const row of calls) entry(row.keyId).callLogAdmitted += row._count._all;
  return usage;
}
