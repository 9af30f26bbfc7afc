/**
 * The GET handler of a key's call-log export (…/calls.csv?range=30): the calls of the range as a CSV
 * attachment, streamed. `load` decides who may read which key, as on the key's page: another developer's
 * key and an unknown id get the same 404; a signed-out visitor gets 401 whatever the id.
 */
import { config } from '../config.ts';
import { type Db, getDb } from '../db/client.ts';
import type { ApiKey } from '../db/generated/sqlite/client.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { callLogCsvLines } from '../usage/call-log-export.ts';
import { daysEndingWith } from '../usage/queries.ts';
import { parseUsageRange, quotaDayStart } from '../usage/range.ts';
import { NEW_PASSWORD_FIRST, NEW_PASSWORD_PATH, PortalNotFound, type Viewer } from './access.ts';
import { currentViewer } from './viewer.ts';

const NO_STORE = { 'cache-control': 'no-store' };

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
        headers: { ...NO_STORE, 'content-type': 'text/plain; charset=utf-8' },
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
    const now = Date.now();
    const { quotaTimeZone } = config();
    const days = daysEndingWith(quotaDayCalculator(quotaTimeZone)(now).day, range);
    const lines = callLogCsvLines(db, key.lineageId, new Date(quotaDayStart(quotaTimeZone, days[0])), new Date(now));
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        ...NO_STORE,
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="chemflow-calls-${key.id}-${days[0]}-to-${days[days.length - 1]}.csv"`,
      },
    });
  };
}
