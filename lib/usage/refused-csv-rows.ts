/**
 * The calls a limit refused, as the call log's CSV shows them: no row per 429 is stored, only the sample
 * refused-calls.ts keeps (the newest REFUSED_CALLS_KEPT per key and reason), so the export shows those,
 * each in its place by time among the admitted calls. The counts of every refused call are in the usage
 * figures (DailyUsage.rateLimited).
 */
import type { Db } from '../db/client.ts';
import { csvLine } from './csv.ts';
import { LIMIT_ERROR_CODES } from './queries.ts';
import { LIMIT_REASONS, type LimitReason } from './refused-calls.ts';

interface TimedLine {
  createdAt: Date;
  line: string;
}

interface RefusedCsvRows {
  /**
   * `lines` (one page of the call log, oldest first) with the sampled refusals up to its last call merged
   * in by time, as one string; on the `last` page, every sampled refusal left.
   */
  mergedWith(lines: TimedLine[], last: boolean): string;
}

/** The sampled refusals of `displays`' keys (id → display form) between two times, oldest first. */
export async function refusedCsvRows(
  db: Db,
  displays: Map<string, string>,
  since: Date,
  until: Date,
): Promise<RefusedCsvRows> {
  const sample = await db.refusedCall.findMany({
    where: {
      keyId: { in: [...displays.keys()] },
      reason: { in: [...LIMIT_REASONS] },
      createdAt: { gte: since, lte: until },
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const left: TimedLine[] = sample.map((r) => ({
    createdAt: r.createdAt,
    line: csvLine([
      r.createdAt.toISOString(),
      r.tool,
      'rate_limited',
      LIMIT_ERROR_CODES[r.reason as LimitReason],
      0,
      displays.get(r.keyId) ?? '',
    ]),
  }));
  return {
    mergedWith(lines, last) {
      const until = last ? Infinity : (lines.at(-1)?.createdAt.getTime() ?? -Infinity);
      let taken = 0;
      while (taken < left.length && left[taken].createdAt.getTime() <= until) taken++;
      return [...lines, ...left.splice(0, taken)]
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map((l) => l.line)
        .join('');
    },
  };
}
