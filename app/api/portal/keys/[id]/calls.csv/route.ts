/** The key page's call-log export: the signed-in owner's own key only. */
import { ownKey } from '@/lib/portal/access.ts';
import { callLogCsvRoute } from '@/lib/portal/call-log-route.ts';

export const dynamic = 'force-dynamic';

export const GET = callLogCsvRoute(ownKey);
