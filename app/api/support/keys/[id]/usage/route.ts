/**
 * The support key page's live usage (polled by components/usage/LiveKeyUsage.tsx): any key's KeyReport
 * as JSON, for staff only. Signed out, not staff, or no such key: the same 404.
 */
import { getDb } from '@/lib/db/client.ts';
import { PortalNotFound } from '@/lib/portal/access.ts';
import { staffKeyReport } from '@/lib/portal/support.ts';
import { currentViewer } from '@/lib/portal/viewer.ts';

export const dynamic = 'force-dynamic';

const NO_STORE = { 'cache-control': 'no-store' };

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await currentViewer();
  try {
    if (!viewer) throw new PortalNotFound();
    return Response.json(await staffKeyReport(getDb(), viewer, id), { headers: NO_STORE });
  } catch (error) {
    if (error instanceof PortalNotFound) return Response.json({ error: error.message }, { status: 404, headers: NO_STORE });
    throw error;
  }
}
