/**
 * A key's call log as CSV, for the portal's export: every admitted call of the key's reissue chain, and
 * the sample kept of the calls a limit refused (refused-csv-rows.ts), from the start of the range's first
 * quota day until now, oldest first. It is read
 * and sent in pages of EXPORT_PAGE_ROWS, so memory stays flat however many calls the range holds; the
 * range itself is bounded by CALL_LOG_RETENTION_DAYS, after which calls are pruned (DailyUsage keeps the
 * daily counts).
 *
 * Each key of the chain is read along its own (keyId, createdAt) index and the keys are merged here: one
 * query over all of them (keyId IN …) made the planner walk the createdAt index through every key's calls.
 * Between pages the generator yields to the event loop (nextTurn), because on SQLite every read is
 * synchronous: without that, an export ran start to end in one turn and held up every other request of
 * the process.
 */
import type { Db } from '../db/client.ts';
import { displayKey } from '../keys/format.ts';
import { processShared } from '../process-shared.ts';
import { csvLine } from './csv.ts';
import { refusedCsvRows } from './refused-csv-rows.ts';

/**
 * Rows per page. On SQLite a page is read synchronously, so it is also how long an export holds the
 * event loop at a time: 250 rows take about a millisecond here, 1,000 took about 5.
 */
export const EXPORT_PAGE_ROWS = 250;

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

/**
 * Waits for this export's next page to be read. Pages of all running exports queue here and one is let
 * through per turn of the event loop: between two pages everything else waiting (requests, timers) runs,
 * and however many exports run, a turn carries one page, not one per export. Shared by the process
 * (lib/process-shared.ts), so it has one queue whichever bundle (server.ts's, each Next route's) loaded
 * this module.
 */
const pageQueue = processShared('exportPageQueue', () => ({ waiting: [] as (() => void)[], scheduled: false }));

function letOnePageThrough(): void {
  const next = pageQueue.waiting.shift();
  pageQueue.scheduled = pageQueue.waiting.length > 0;
  if (pageQueue.scheduled) setImmediate(letOnePageThrough);
  next?.();
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    pageQueue.waiting.push(resolve);
    if (!pageQueue.scheduled) {
      pageQueue.scheduled = true;
      setImmediate(letOnePageThrough);
    }
  });
}

/** Rows in the export's order: by time, then by id (the order they were written in). */
const before = (a: CallRow, b: CallRow) =>
  a.createdAt.getTime() < b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id < b.id);

/** One key's calls in the range, oldest first, a page at a time. */
class KeyCursor {
  private page: CallRow[] = [];
  private at = 0;
  private last: CallRow | null = null;
  private exhausted = false;

  constructor(
    private readonly db: Db,
    private readonly keyId: string,
    private readonly since: Date,
    private readonly until: Date,
  ) {}

  /** The next call without taking it: null when the key has no more, undefined when a page must be read first. */
  get head(): CallRow | null | undefined {
    if (this.at < this.page.length) return this.page[this.at];
    return this.exhausted ? null : undefined;
  }

  /** Reads the next page; the new head. */
  async read(): Promise<CallRow | null> {
    this.page = await this.readPage();
    this.at = 0;
    this.exhausted = this.page.length < EXPORT_PAGE_ROWS;
    return this.page[0] ?? null;
  }

  take(): CallRow {
    this.last = this.page[this.at++];
    return this.last;
  }

  /**
   * Keyset paging on (createdAt, id), written so the index range starts at the last row sent
   * (createdAt ≥ its time) and only rows of that same instant are told apart by id. The equivalent
   * "createdAt > t OR (createdAt = t AND id > i)" gave SQLite no lower bound: every page walked the
   * key's index from the start of the range (an export of 300,000 rows read ~3.5 times slower).
   */
  private readPage(): Promise<CallRow[]> {
    const after = this.last;
    return this.db.callLog.findMany({
      where: {
        keyId: this.keyId,
        createdAt: { gte: after?.createdAt ?? this.since, lte: this.until },
        ...(after && { OR: [{ createdAt: { gt: after.createdAt } }, { id: { gt: after.id } }] }),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: EXPORT_PAGE_ROWS,
      select: { id: true, keyId: true, tool: true, outcome: true, errorCode: true, latencyMs: true, createdAt: true },
    });
  }
}

/** The CSV's lines: a header, then one line per call; pulled a page at a time by the response stream. */
export async function* callLogCsvLines(db: Db, lineageId: string, since: Date, until: Date): AsyncGenerator<string> {
  const keys = await db.apiKey.findMany({ where: { lineageId }, select: { id: true, start: true, end: true } });
  const displays = new Map(keys.map((k) => [k.id, displayKey(k)]));
  const cursors = keys.map((k) => new KeyCursor(db, k.id, since, until));
  const refused = await refusedCsvRows(db, displays, since, until);
  yield csvLine(CALL_LOG_CSV_HEADER);
  for (;;) {
    await nextTurn();
    const lines: { createdAt: Date; line: string }[] = [];
    for (let count = 0; count < EXPORT_PAGE_ROWS; count++) {
      let earliest: { cursor: KeyCursor; call: CallRow } | null = null;
      for (const cursor of cursors) {
        const call = cursor.head === undefined ? await cursor.read() : cursor.head;
        if (call && (!earliest || before(call, earliest.call))) earliest = { cursor, call };
      }
      if (!earliest) break;
      const call = earliest.cursor.take();
      lines.push({ createdAt: call.createdAt, line: csvLine(callCells(call, displays.get(call.keyId) ?? '')) });
    }
    const last = lines.length < EXPORT_PAGE_ROWS;
    const text = refused.mergedWith(lines, last);
    if (text) yield text;
    if (last) return;
  }
}
