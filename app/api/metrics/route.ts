/** Prometheus scrape endpoint; the metrics are defined in lib/ops/metrics.ts. */
import { metricsResponse } from '@/lib/ops/metrics-endpoint.ts';

export const dynamic = 'force-dynamic';

export function GET(request: Request): Promise<Response> {
  return metricsResponse(request);
}
