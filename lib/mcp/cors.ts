/**
 * CORS for browser MCP clients. CORS_ORIGINS lists the allowed origins ("*" by default: keys, not
 * cookies, authorise /mcp, so a foreign page gains nothing it could not do from a server). Answers
 * expose the rate-limit headers so browser clients can pace themselves.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { config } from '../config.ts';
import { requestHost } from '../http/request-host.ts';
import { hostAllowed } from './host-check.ts';

const ALLOWED_HEADERS =
  'Authorization, X-API-Key, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
const EXPOSED_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Mcp-Session-Id';

export function originAllowed(origin: string): boolean {
  const allowed = config().corsOrigins;
  return allowed.includes('*') || allowed.includes(origin);
}

/** Headers for an answer to a request that carried `Origin` (already checked with originAllowed). */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (!origin) return {};
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' };
}

export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}

/**
 * CORS for what server.ts answers on /mcp before the handler runs (a body over its cap or too slow, too
 * many requests from one address): granted as the handler grants it, to an allowed origin on a Host this
 * server is published under, never to a rebinding page.
 */
export function earlyAnswerCors(headers: IncomingHttpHeaders, trustProxy: boolean): Record<string, string> {
  const origin = headers.origin;
  if (!origin || !originAllowed(origin)) return {};
  const forwarded = headers['x-forwarded-host'];
  const host = requestHost(headers.host, Array.isArray(forwarded) ? forwarded[0] : forwarded, trustProxy);
  if (host !== undefined && !hostAllowed(host, config().allowedHosts)) return {};
  return corsHeaders(origin);
}
