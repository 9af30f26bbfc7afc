/**
 * The GET handler of a key's call-log export (…/calls.csv?range=30): the calls of the range as a CSV
 * attachment, streamed. `load` decides who may read which key, as on the key's page: another developer's
 * key and an unknown id get the same 404; a signed-out visitor gets 401 whatever the id. Exports then
 * take turns (export-slots.ts): one account's beyond EXPORTS_PER_ACCOUNT answer 429, anyone's beyond
 * EXPORTS_PER_SERVER 503, each after waiting EXPORT_WAIT_SECONDS for a turn, with Retry-After.
 */
import { config } from '../config.ts';
import { type Db, getDb } from '../db/client.ts';
import type { ApiKey } from '../db/generated/sqlite/client.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { processShared } from '../process-shared.ts';
import { callLogCsvLines } from '../usage/call-log-export.ts';
import { CSV_BYTE_ORDER_MARK } from '../usage/csv.ts';
import { type ExportSlot, ExportSlots } from '../usage/export-slots.ts';
import { daysEndingWith } from '../usage/queries.ts';
import { parseUsageRange, quotaDayStart } from '../usage/range.ts';
import { NEW_PASSWORD_FIRST, NEW_PASSWORD_PATH, PortalNotFound, type Viewer } from './access.ts';
import { currentViewer } from './viewer.ts';

const NO_STORE = { 'cache-control': 'no-store' };
const PLAIN_TEXT = { ...NO_STORE, 'content-type': 'text/plain; charset=utf-8' };

/** What a refused export suggests: long enough for an export ahead of it to finish. */
const EXPORT_RETRY_AFTER_SECONDS = 30;

/** Shared by the process, so both export routes (the owner's and support's) count against one set of limits. */
function exportSlots(): ExportSlots {
  return processShared('exportSlots', () => {
    const { exportsPerAccount, exportsPerServer, exportWaitSeconds } = config();
    return new ExportSlots({
      perAccount: exportsPerAccount,
      perServer: exportsPerServer,
      waitMs: exportWaitSeconds * 1000,
    });
  });
}

function refusal(held: 'account' | 'server', slots: ExportSlots): Response {
  const { perAccount, perServer } = slots.limits;
  const text =
    held === 'account'
      ? `Your other call-log export is still running: ChemFlow runs ${perAccount === 1 ? 'one export' : `${perAccount} exports`} per account at a time. Wait for that download to finish, then try again.\n`
      : `ChemFlow is busy with other call-log exports (${perServer} at a time). Try again in ${EXPORT_RETRY_AFTER_SECONDS} seconds; your keys and their calls are not affected.\n`;
  return new Response(text, {
    status: held === 'account' ? 429 : 503,
    headers: { ...PLAIN_TEXT, 'retry-after': String(EXPORT_RETRY_AFTER_SECONDS) },
  });
}

/** The lines, then the slot given back, however the export ends: finished, failed or cancelled. */
async function* holding(slot: ExportSlot, lines: AsyncGenerator<string>): AsyncGenerator<string> {
  try {
    yield* lines;
  } finally {
    slot.release();
  }
}

/**
 * The response body: the byte-order mark, then one chunk per page. A pull stream reads the next page
 * only when the one before has been taken, so a slow client slows its export instead of filling memory.
 */
function csvBody(lines: AsyncGenerator<string>, slot: ExportSlot): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const held = holding(slot, lines);
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await held.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(first ? CSV_BYTE_ORDER_MARK + next.value : next.value));
      first = false;
    },
    async cancel() {
      // return() waits for a page being read; the slot is free at once.
      slot.release();
      await held.return(undefined);
    },
  });
}

export function callLogCsvRoute(load: (db: Db, viewer: Viewer, keyId: string) => Promise<ApiKey>) {
  return async function getCallLogCsv(
    request: Request,
    { params }: { params: Promise<{ id: string }> },
  ): Promise<Response> {
    const { id } = await params;
    const viewer = await currentViewer();
    if (!viewer) {
      return new Response('Sign in to ChemFlow to export the calls of your keys.\n', {
        status: 401,
        headers: PLAIN_TEXT,
      });
    }
    if (viewer.mustChangePassword) {
      return new Response(`${NEW_PASSWORD_FIRST} (${NEW_PASSWORD_PATH}).\n`, {
        status: 403,
        headers: { ...NO_STORE, 'content-type': 'text/plain; charset=utf-8' },
      });
    }
    const db = getDb();
    let key: ApiKey;
    try {
      key = await load(db, viewer, id);
    } catch (error) {
      if (error instanceof PortalNotFound)
        return Response.json({ error: error.message }, { status: 404, headers: NO_STORE });
      throw error;
    }
    const range = parseUsageRange(new URL(request.url).searchParams.get('range'));
    const { quotaTimeZone } = config();
    const days = daysEndingWith(quotaDayCalculator(quotaTimeZone)(Date.now()).day, range);
    const slots = exportSlots();
    const admission = await slots.acquire(viewer.id);
    if ('refused' in admission) return refusal(admission.refused, slots);
    // Read from the moment the export starts, not from when it was asked for.
    const lines = callLogCsvLines(db, key.lineageId, new Date(quotaDayStart(quotaTimeZone, days[0])), new Date());
    return new Response(csvBody(lines, admission.slot), {
      headers: {
        ...NO_STORE,
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="chemflow-calls-${key.id}-${days[0]}-to-${days[days.length - 1]}.csv"`,
      },
    });
  };
}
