/**
 * The host a request was sent to, as server.ts sees it: the first X-Forwarded-Host entry when a trusted
 * proxy stands in front (TRUST_PROXY=1), else the Host header. Any client can send X-Forwarded-Host, so
 * without TRUST_PROXY it is ignored (server.ts also strips it before Next sees the request).
 */
export function requestHost(
  host: string | null | undefined,
  forwardedHost: string | null | undefined,
  trustProxy: boolean,
): string | undefined {
  const forwarded = trustProxy ? forwardedHost?.split(',', 1)[0].trim() : undefined;
  return (forwarded || host || undefined)?.toLowerCase();
}
