/**
 * CORS for browser MCP clients. CORS_ORIGINS lists the allowed origins ("*" by default: keys, not
 * cookies, authorise /mcp, so a foreign page gains nothing it could not do from a server). Answers
 * expose the rate-limit headers so browser clients can pace themselves.
 */
import { config } from '../config.ts';

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
