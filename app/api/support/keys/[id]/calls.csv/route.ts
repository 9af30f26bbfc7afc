/** The support key page's call-log export: any key, for staff only. */
import { anyKeyForStaff } from '@/lib/portal/access.ts';
import { callLogCsvRoute } from '@/lib/portal/call-log-route.ts';

export const dynamic = 'force-dynamic';

export const GET = callLogCsvRoute(anyKeyForStaff);
