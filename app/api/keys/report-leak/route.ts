/** The public leaked-key report endpoint; the logic is in lib/portal/leak-report.ts. */
import { getDb } from '@/lib/db/client.ts';
import { answerLeakReport, leakReportMethodNotAllowed } from '@/lib/portal/leak-report.ts';

export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return answerLeakReport(request, getDb());
}

export const GET = leakReportMethodNotAllowed;
export const HEAD = leakReportMethodNotAllowed;
export const PUT = leakReportMethodNotAllowed;
export const PATCH = leakReportMethodNotAllowed;
export const DELETE = leakReportMethodNotAllowed;
export const OPTIONS = leakReportMethodNotAllowed;
