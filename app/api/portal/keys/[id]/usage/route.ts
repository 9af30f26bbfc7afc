/** The key page's live usage: the signed-in owner's own key only. */
import { myKeyReport } from '@/lib/portal/keys.ts';
import { keyUsageRoute } from '@/lib/portal/usage-route.ts';

export const dynamic = 'force-dynamic';

export const GET = keyUsageRoute(myKeyReport);
