/**
 * The key page's live usage (polled by components/usage/LiveKeyUsage.tsx): the signed-in owner's KeyReport
 * as JSON. Signed out, someone else's key or no such key: the same 404, so ids cannot be probed.
 */
import { getDb } from '@/lib/db/client.ts';
import { PortalNotFound } from '@/lib/portal/access.ts';
import { myKeyReport } from '@/lib/portal/keys.ts';
import { currentViewer } from '@/lib/portal/viewer.ts';

export const dynamic = 'force-dynamic';

const NO_STORE = { 'cache-control': 'no-store' };

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await currentViewer();
  try {
    if (!viewer) throw new PortalNotFound();
    return Response.json(await myKeyReport(getDb(), viewer, id), { headers: NO_STORE });
  } catch (error) {
    if (error instanceof PortalNotFound) return Response.json({ error: error.message }, { status: 404, headers: NO_STORE });
    throw error;
  }
}
