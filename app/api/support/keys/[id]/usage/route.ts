/** The support key page's live usage: any key, for staff only. */
import { staffKeyReport } from '@/lib/portal/support.ts';
import { keyUsageRoute } from '@/lib/portal/usage-route.ts';

export const dynamic = 'force-dynamic';

export const GET = keyUsageRoute(staffKeyReport);
