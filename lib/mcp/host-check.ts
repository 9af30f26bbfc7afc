/**
 * DNS-rebinding protection for /mcp, as the MCP Streamable HTTP transport asks: a page on an attacker's
 * domain that resolves to this server (or to a developer's localhost) makes the browser send the
 * attacker's name as Host. /mcp answers only the Host names this server is published under:
 * ALLOWED_HOSTS, PUBLIC_URL's host and the loopback names (lib/config.ts). One or two Set lookups.
 */
import { config } from '../config.ts';
import { requestHost } from '../http/request-host.ts';
import type { McpAnswer, McpRequest } from './request.ts';
import { jsonError } from './responses.ts';

const PORT = /:\d+$/;
/** Enough of a refused Host to recognise it in the message; the rest is cut. */
const SHOWN_HOST_CHARS = 100;

/** True when `host` is allowed: listed with its port, or listed without a port (any port). */
export function hostAllowed(host: string, allowed: ReadonlySet<string>): boolean {
  return allowed.has(host) || allowed.has(host.replace(PORT, ''));
}

/** The 403 for a Host this server is not published under, or null. */
export function hostRefusal(request: McpRequest): McpAnswer | null {
  const settings = config();
  const host = requestHost(request.headers.get('host'), request.headers.get('x-forwarded-host'), settings.trustProxy);
  // No browser leaves Host out, so a request without one (HTTP/1.0 tools) is no rebinding attack.
  if (host === undefined || hostAllowed(host, settings.allowedHosts)) return null;
  const shown = JSON.stringify(host.length > SHOWN_HOST_CHARS ? `${host.slice(0, SHOWN_HOST_CHARS)}…` : host);
  return jsonError(
    403,
    'host_not_allowed',
    `/mcp does not answer requests addressed to host ${shown} (a protection against DNS rebinding). ` +
      'If this server is published under that name, the operator adds it to ALLOWED_HOSTS (comma-separated host or host:port).',
  );
}
