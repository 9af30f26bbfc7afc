/**
 * The GET handler of a key's live usage endpoint (polled by components/usage/LiveKeyUsage.tsx): the
 * KeyReport as JSON (its trend over ?range= days, as the page's), never cached. `load` decides who may read which key; signed out, not allowed or no
 * such key all get the same 404, so ids cannot be probed.
 */
import { type Db, getDb } from '../db/client.ts';
import type { KeyReport } from '../usage/key-report.ts';
import { parseUsageRange, type UsageRange } from '../usage/range.ts';
import { NEW_PASSWORD_FIRST, PortalNotFound, type Viewer } from './access.ts';
import { currentViewer } from './viewer.ts';

const NO_STORE = { 'cache-control': 'no-store' };

export function keyUsageRoute(load: (db: Db, viewer: Viewer, keyId: string, range: UsageRange) => Promise<KeyReport>) {
  return async function getKeyUsage(
    request: Request,
    { params }: { params: Promise<{ id: string }> },
  ): Promise<Response> {
    const { id } = await params;
    const viewer = await currentViewer();
    try {
      if (!viewer) throw new PortalNotFound();
      if (viewer.mustChangePassword)
        return Response.json({ error: `${NEW_PASSWORD_FIRST}.` }, { status: 403, headers: NO_STORE });
      const range = parseUsageRange(new URL(request.url).searchParams.get('range'));
      return Response.json(await load(getDb(), viewer, id, range), { headers: NO_STORE });
    } catch (error) {
      if (error instanceof PortalNotFound)
        return Response.json({ error: error.message }, { status: 404, headers: NO_STORE });
      throw error;
    }
  };
}
