/**
 * Which redirect URIs a client may register. Authorization codes travel to them, so each is matched
 * exactly when used (a loopback one on any port, RFC 8252 §7.3; the SDK's authorization handler does the
 * matching), and only these may be registered:
 * - https, anywhere;
 * - http only to a loopback address, for native apps listening on the user's own machine;
 * - a custom scheme (a desktop app's "myapp://callback") only for a client the operator registers, since
 *   any app on a machine can claim a scheme.
 * Never a fragment or credentials in the URI (RFC 6749 §3.1.2).
 */
export type ClientRegistrar = 'dynamic' | 'operator';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Schemes that run or reveal something where they open, never a redirect. */
const NEVER_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'ws:', 'wss:', 'ftp:']);

/** Longest redirect URI taken: a real one is well under this, and each is stored and shown. */
const MAX_REDIRECT_URI_LENGTH = 2_000;

/** Why `uri` may not be registered by a client of `registrar`, or null when it may. */
export function redirectUriProblem(uri: string, registrar: ClientRegistrar): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash !== '' || uri.includes('#')) return 'has a fragment (#…), which a redirect URI may not have';
  if (url.username !== '' || url.password !== '') return 'carries a user name or password';
  if (url.protocol === 'https:') return url.hostname === '' ? 'has no host' : null;
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : 'uses http to a host other than this machine: use https, or http to localhost, 127.0.0.1 or [::1]';
  }
  if (NEVER_SCHEMES.has(url.protocol)) return `uses the ${url.protocol} scheme, which is never a redirect`;
  return registrar === 'operator'
    ? null
    : `uses the custom scheme ${url.protocol}, which only a client the service's operator registers may use`;
}
