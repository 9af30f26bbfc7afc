/** Health check for load balancers and orchestrators; the logic is in lib/ops/health.ts. */
import { healthResponse } from '@/lib/ops/health.ts';

export const dynamic = 'force-dynamic';

export function GET(): Promise<Response> {
  return healthResponse();
}
