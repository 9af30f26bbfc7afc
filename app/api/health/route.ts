/** Health check for load balancers and orchestrators; the logic is in lib/mcp/health.ts. */
import { healthResponse } from '@/lib/mcp/health.ts';

export const dynamic = 'force-dynamic';

export function GET(): Promise<Response> {
  return healthResponse();
}
