/**
 * A key's call log as CSV, for the portal's export: every admitted call of the key's reissue chain, and
 * the sample kept of the calls a limit refused (refused-csv-rows.ts), from the start of the range's first
 * quota day until now, oldest first. It is read
 * and sent in pages of EXPORT_PAGE_ROWS, so memory stays flat however many calls the range holds; the
 * range itself is bounded by CALL_LOG_RETENTION_DAYS, after which calls are pruned (DailyUsage keeps the
 * daily counts).
 */
import type { Db } from '../db/client.ts';
import { displayKey } from '../keys/format.ts';
import { csvLine } from './csv.ts';
import { refusedCsvRows } from './refused-csv-rows.ts';

export const EXPORT_PAGE_ROWS = 1000;

export const CALL_LOG_CSV_HEADER = ['time (UTC)', 'tool', 'outcome', 'error code', 'latency ms', 'key'];

interface CallRow {
  id: number;
  keyId: string;
  tool: string;
  outcome: string;
  errorCode: string | null;
  latencyMs: number;
  createdAt: Date;
}

/** Latency to a tenth of a millisecond, as the key page shows short calls. */
const callCells = (c: CallRow, key: string) => [
  c.createdAt.toISOString(),
  c.tool,
  c.outcome,
  c.errorCode,
  Math.round(c.latencyMs * 10) / 10,
  key,
];

/** The CSV's lines: a header, then one line per call; pulled page by page by the response stream. */
export async function* callLogCsvLines(db: Db, lineageId: string, since: Date, until: Date): AsyncGenerator<string> {
  const keys = await db.apiKey.findMany({ where: { lineageId }, select: { id: true, start: true, end: true } });
  const displays = new Map(keys.map((k) => [k.id, displayKey(k)]));
  const refused = await refusedCsvRows(db, displays, since, until);
  yield csvLine(CALL_LOG_CSV_HEADER);
  let after: { createdAt: Date; id: number } | null = null;
  for (;;) {
    const page: CallRow[] = await db.callLog.findMany({
      where: {
        keyId: { in: [...displays.keys()] },
        createdAt: { gte: since, lte: until },
        // Keyset paging on (createdAt, id): each page starts after the last row sent.
        ...(after && {
          OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }],
        }),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: EXPORT_PAGE_ROWS,
      select: { id: true, keyId: true, tool: true, outcome: true, errorCode: true, latencyMs: true, createdAt: true },
    });
    const lines = page.map((c) => ({
      createdAt: c.createdAt,
      line: csvLine(callCells(c, displays.get(c.keyId) ?? '')),
    }));
    const text = refused.mergedWith(lines, page.length < EXPORT_PAGE_ROWS);
    if (text) yield text;
    if (page.length < EXPORT_PAGE_ROWS) return;
    const last = page[page.length - 1];
    after = { createdAt: last.createdAt, id: last.id };
  }
}
