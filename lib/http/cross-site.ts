/**
 * Cross-site form posts to the portal are refused by server.ts with a 403 before Next sees them. Next
 * refuses a server action whose Origin is not the request's host too, but by throwing, which answers
 * HTTP 500 and logs an error for what is an attack or a misconfiguration, not a bug. The rule is Next's
 * (Origin's host against X-Forwarded-Host from a trusted proxy, else Host), applied to every state-
 * changing method, server action or not, so Auth.js's form endpoints get it as well.
 */
import type { IncomingMessage } from 'node:http';
import { requestHost } from './request-host.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The public leaked-key report (app/api/keys/report-leak, lib/portal/leak-report.ts). */
export const LEAK_REPORT_PATH = '/api/keys/report-leak';
/**
 * APIs that act on no cookie or session, so a request from another site can do nothing there that it
 * could not do from a server: /mcp (API keys; its own Origin rule is CORS_ORIGINS, lib/mcp/cors.ts) and
 * the leak report (anyone holding a leaked secret may report it;
 * it sends no CORS headers, so a page elsewhere cannot read its answers).
 */
const OPEN_TO_OTHER_SITES = new Set(['/mcp', LEAK_REPORT_PATH]);

export const CROSS_SITE_MESSAGE =
  'This request came from a page on another site (its Origin is not this server), so it was not run. Changes are accepted only from this site’s own pages: open the page here and submit it again.';

/**
 * True when a state-changing request carries an Origin that is not the host it was sent to. A request
 * without Origin is let through, as Next does: browsers send Origin on every cross-site POST, so one
 * without it comes from a program, which holds no victim's cookies.
 */
export function isCrossSite(req: IncomingMessage, path: string, trustProxy: boolean): boolean {
  if (SAFE_METHODS.has(req.method ?? 'GET') || OPEN_TO_OTHER_SITES.has(path)) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const host = requestHost(req.headers.host, firstValue(req.headers['x-forwarded-host']), trustProxy);
  return host === undefined || originHost(origin) !== host;
}

/** Origin's host[:port] in lower case; null for "null" (sandboxed pages, some redirects) and for garbage. */
function originHost(origin: string): string | null {
  if (origin === 'null') return null;
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
