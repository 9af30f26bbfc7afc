/**
 * Where the OAuth documents and endpoints live, and the URLs built from an origin: shared by the
 * authorization server (server.ts), server.ts's routing, /mcp's 401 challenge and the consent page,
 * without loading the server's own dependencies.
 */
export const PROTECTED_RESOURCE_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
] as const;
/** RFC 8414's path and the OpenID Connect discovery paths clients also probe, root and /mcp forms. */
export const AUTHORIZATION_SERVER_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-authorization-server/mcp',
  '/.well-known/openid-configuration',
  '/.well-known/openid-configuration/mcp',
  '/mcp/.well-known/openid-configuration',
] as const;
export const ENDPOINT_PATHS = { authorize: '/authorize', token: '/token', register: '/register', revoke: '/revoke' };
/** The portal page that asks the signed-in user to allow or deny a client. */
export const CONSENT_PATH = '/oauth/consent';

export const OAUTH_PATHS: ReadonlySet<string> = new Set([
  ...PROTECTED_RESOURCE_PATHS,
  ...AUTHORIZATION_SERVER_PATHS,
  ...Object.values(ENDPOINT_PATHS),
]);

/** The /mcp URL tokens are issued for (RFC 8707), for the origin clients reach this server at. */
export const resourceOf = (origin: string) => `${origin}/mcp`;
/** Where a 401 from /mcp points clients (RFC 9728 §5.1). */
const resourceMetadataUrl = (origin: string) => `${origin}${PROTECTED_RESOURCE_PATHS[1]}`;

/** The origin clients use for this server: PUBLIC_URL's when set, else the one the request was sent to. */
export function publicOrigin(requestUrl: string, publicUrl: string | undefined): string {
  return new URL(publicUrl || requestUrl).origin;
}

/**
 * A WWW-Authenticate value for a 401 (RFC 6750 §3, RFC 9728 §5.1): the Bearer scheme, where OAuth clients
 * find the protected-resource metadata, the error code where there is one, and the same message as the
 * JSON body as error_description, so a client that shows only the header still tells its user what to
 * do. Header values must be printable ASCII: other characters become "?", and quotes and backslashes are
 * escaped.
 */
export function bearerChallenge(origin: string, description: string, error?: 'invalid_token'): string {
  const quoted = description.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
  return `Bearer realm="mcp", resource_metadata="${resourceMetadataUrl(origin)}"${error ? `, error="${error}"` : ''}, error_description="${quoted}"`;
}
