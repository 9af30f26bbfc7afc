/**
 * This server takes API keys, not OAuth. MCP clients that meet a 401 still try OAuth: they read the
 * WWW-Authenticate header, fetch the discovery documents (RFC 9728 protected-resource metadata, RFC 8414
 * authorization-server metadata, OpenID configuration) and then register (RFC 7591) at /register. Answered
 * by Next, each of those was a 404 HTML page, and clients showed that page ("Dynamic Client Registration
 * rejected (HTTP 404): <!DOCTYPE html>…") instead of our key message. Here each answers a short JSON
 * saying how to send a key, in the OAuth error shape (`error`, `error_description`) that clients display.
 */

/** The discovery documents clients look for, at the root and (RFC 9728 §3.1, RFC 8414 §3.1) under /mcp. */
export const OAUTH_DISCOVERY_PATHS: ReadonlySet<string> = new Set([
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-authorization-server/mcp',
  '/.well-known/openid-configuration',
  '/.well-known/openid-configuration/mcp',
  '/mcp/.well-known/openid-configuration',
]);

/** The OAuth endpoints clients fall back to when discovery finds no document. */
export const OAUTH_ENDPOINT_PATHS: ReadonlySet<string> = new Set(['/register', '/authorize', '/token']);

export const API_KEY_HOW_TO =
  'This server takes API keys, not OAuth: send your cf_ key as "Authorization: Bearer cf_..." or "X-API-Key: cf_..." (mcp-remote: --header "Authorization: Bearer cf_..."). Keys are made and reissued in the portal at /keys.';

/** The OAuth error shape (RFC 6749 §5.2) clients report to their users: a code and a description. */
export interface OAuthErrorBody {
  error: string;
  error_description: string;
}

export function isOAuthDiscoveryPath(path: string): boolean {
  return OAUTH_DISCOVERY_PATHS.has(path);
}

/** Registration, authorization and token endpoints: their answer depends on the key sent (../mcp/oauth-endpoint.ts). */
export function isOAuthEndpointPath(path: string): boolean {
  return OAUTH_ENDPOINT_PATHS.has(path);
}

/** A discovery document's answer: there is none (404), and this is how to send a key. */
export const OAUTH_DISCOVERY_ANSWER: OAuthErrorBody = {
  error: 'oauth_not_supported',
  error_description: API_KEY_HOW_TO,
};

/**
 * A WWW-Authenticate value for a 401 (RFC 6750 §3): the Bearer scheme, its error code where there is one,
 * and the same message as the JSON body as error_description, so a client that shows only the header
 * still tells its user what to do. Header values must be printable ASCII: other characters become "?",
 * and quotes and backslashes are escaped.
 */
export function bearerChallenge(description: string, error?: 'invalid_token'): string {
  const quoted = description.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
  return `Bearer realm="mcp"${error ? `, error="${error}"` : ''}, error_description="${quoted}"`;
}
