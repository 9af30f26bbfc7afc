/** GET /api/metrics: the exposition text, behind METRICS_TOKEN when that is set. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from '../config.ts';
import { renderMetrics } from './metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares digests so neither the token's content nor its length leaks through timing. */
function tokenMatches(header: string | null, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

export async function metricsResponse(request: Request): Promise<Response> {
  const token = config().metricsToken;
  if (token && !tokenMatches(request.headers.get('authorization'), token)) {
    return Response.json(
      { error: 'unauthorized', message: 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".' },
      { status: 401, headers: { 'www-authenticate': 'Bearer', 'cache-control': 'no-store' } },
    );
  }
  const { contentType, body } = await renderMetrics();
  return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
}
