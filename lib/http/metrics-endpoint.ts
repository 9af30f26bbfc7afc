/**
 * GET /api/metrics: the exposition text. With METRICS_TOKEN set, only for "Authorization: Bearer
 * <token>"; without one, only for this machine (loopback), unless METRICS_OPEN=1 opens it to any
 * address. Metrics name keys' tiers, call rates and the process's memory: not for the open internet
 * by default.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { config, type ServiceConfig } from '../config.ts';
import { renderMetrics } from '../ops/metrics.ts';
import { CLIENT_IP_HEADER, isLoopback } from './transport-security.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares digests so neither the token's content nor its length leaks through timing. */
function tokenMatches(header: string | null, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

type MetricsAccess = 'granted' | 'token_required' | 'loopback_only';

/**
 * Who may read the metrics. `clientAddress` is the one server.ts stamped (CLIENT_IP_HEADER); absent,
 * the caller counts as remote.
 */
export function metricsAccess(
  authorization: string | null,
  clientAddress: string | null,
  settings: Pick<ServiceConfig, 'metricsToken' | 'metricsOpen'>,
): MetricsAccess {
  if (settings.metricsToken) return tokenMatches(authorization, settings.metricsToken) ? 'granted' : 'token_required';
  if (settings.metricsOpen || (clientAddress !== null && isLoopback(clientAddress))) return 'granted';
  return 'loopback_only';
}

const refusal = (status: number, body: object, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });

export async function metricsResponse(request: Request): Promise<Response> {
  const access = metricsAccess(request.headers.get('authorization'), request.headers.get(CLIENT_IP_HEADER), config());
  if (access === 'token_required')
    return refusal(
      401,
      { error: 'unauthorized', message: 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".' },
      { 'www-authenticate': 'Bearer' },
    );
  if (access === 'loopback_only')
    return refusal(403, {
      error: 'metrics_not_public',
      message:
        'Metrics are served to this machine (loopback) only. To scrape them from elsewhere, the operator sets METRICS_TOKEN (then send "Authorization: Bearer <METRICS_TOKEN>") or METRICS_OPEN=1.',
    });
  const { contentType, body } = await renderMetrics();
  return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
}
