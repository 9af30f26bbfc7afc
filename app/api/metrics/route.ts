/** Prometheus scrape endpoint (access: lib/http/metrics-endpoint.ts); the metrics are defined in lib/ops/metrics.ts. */
import { metricsResponse } from '@/lib/http/metrics-endpoint.ts';

export const dynamic = 'force-dynamic';

export function GET(request: Request): Promise<Response> {
  return metricsResponse(request);
}
