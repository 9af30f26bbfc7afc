/**
 * The OAuth clients of /mcp, kept in the database (OAuthClient) behind the MCP SDK's clients-store
 * interface, which its registration, authorization and token handlers call.
 * - A client registers itself (RFC 7591): its redirect URIs must pass redirect-uris.ts, its name and
 *   URIs are bounded, and it may ask only for the code and refresh-token grants.
 * - Self-registered clients that never complete an authorization are deleted a day later, and there are
 *   at most MAX_DYNAMIC_CLIENTS of them: registration is open to anyone, storage is not.
 * - A client_id that is an https URL names its own metadata document (client-metadata-document.ts).
 * - A confidential client's secret is kept as an HMAC. getClient() leaves the secret out, so the SDK
 *   never compares secrets itself; the token endpoint checks them against the HMAC.
 */
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidClientMetadataError,
  TemporarilyUnavailableError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Db } from '../db/client.ts';
import { hashKey } from '../keys/hash.ts';
import {
  type ClientMetadataFetcher,
  createClientMetadataFetcher,
  isClientMetadataUrl,
} from './client-metadata-document.ts';
import { type ClientRegistrar, redirectUriProblem } from './redirect-uris.ts';

/** Self-registered clients kept at most (unused ones expire first). */
export const MAX_DYNAMIC_CLIENTS = 10_000;
/** How long a self-registered client may wait for its first authorization before it is deleted. */
export const UNUSED_CLIENT_TTL_MS = 24 * 3_600_000;
const MAX_CLIENT_NAME_LENGTH = 100;
const MAX_REDIRECT_URIS = 10;

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);
const AUTH_METHODS = new Set(['none', 'client_secret_post', 'client_secret_basic']);

/** What the SDK's handlers read of a stored client (never its secret). */
function clientInformation(row: {
  id: string;
  name: string;
  redirectUris: string;
  logoUri: string | null;
  clientUri: string | null;
  tokenEndpointAuthMethod: string;
  createdAt: Date;
}): OAuthClientInformationFull {
  return {
    client_id: row.id,
    client_name: row.name,
    redirect_uris: JSON.parse(row.redirectUris) as string[],
    ...(row.logoUri ? { logo_uri: row.logoUri } : {}),
    ...(row.clientUri ? { client_uri: row.clientUri } : {}),
    token_endpoint_auth_method: row.tokenEndpointAuthMethod,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
  };
}

/** The registration's problems, in words a developer can act on; none when it may be stored. */
export function registrationProblems(client: OAuthClientInformationFull, registrar: ClientRegistrar): string[] {
  const problems: string[] = [];
  if (client.redirect_uris.length === 0) problems.push('redirect_uris must list at least one URI');
  if (client.redirect_uris.length > MAX_REDIRECT_URIS)
    problems.push(`redirect_uris may list at most ${MAX_REDIRECT_URIS} URIs`);
  for (const uri of client.redirect_uris) {
    const problem = redirectUriProblem(uri, registrar);
    if (problem) problems.push(`redirect URI ${JSON.stringify(uri.slice(0, 200))} ${problem}`);
  }
  const name = client.client_name?.trim() ?? '';
  if (name.length > MAX_CLIENT_NAME_LENGTH)
    problems.push(`client_name may be at most ${MAX_CLIENT_NAME_LENGTH} characters`);
  for (const [field, uri] of [
    ['logo_uri', client.logo_uri],
    ['client_uri', client.client_uri],
  ] as const) {
    if (uri && !(uri.startsWith('https://') && uri.length <= 2_000)) problems.push(`${field} must be an https URL`);
  }
  const grants = client.grant_types ?? ['authorization_code'];
  const unsupported = grants.filter((g) => !GRANT_TYPES.has(g));
  if (unsupported.length)
    problems.push(`grant_types may be authorization_code and refresh_token, not ${unsupported.join(', ')}`);
  if (client.response_types?.some((r) => r !== 'code')) problems.push('response_types may only be code');
  const method = client.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!AUTH_METHODS.has(method))
    problems.push(`token_endpoint_auth_method may be none, client_secret_post or client_secret_basic, not ${method}`);
  return problems;
}

/** The SDK's clients store, both methods asynchronous and registration always supported. */
export interface ClientsStore extends OAuthRegisteredClientsStore {
  getClient(clientId: string): Promise<OAuthClientInformationFull | undefined>;
  registerClient(
    client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>,
  ): Promise<OAuthClientInformationFull>;
}

let sharedDocuments: ClientMetadataFetcher | undefined;

/**
 * The store; a client_id that is an https URL is a client ID metadata document, fetched (and cached) by
 * `documents`, by default one fetcher per process.
 */
export function createClientsStore(
  db: Db,
  options: { now?: () => number; documents?: ClientMetadataFetcher } = {},
): ClientsStore {
  const now = options.now ?? Date.now;
  return {
    async getClient(clientId) {
      if (isClientMetadataUrl(clientId)) {
        sharedDocuments ??= createClientMetadataFetcher();
        return (options.documents ?? sharedDocuments).getClient(clientId);
      }
      const row = await db.oAuthClient.findUnique({ where: { id: clientId } });
      return row ? clientInformation(row) : undefined;
    },

    async registerClient(client) {
      const full = client as OAuthClientInformationFull;
      const problems = registrationProblems(full, 'dynamic');
      if (problems.length) throw new InvalidClientMetadataError(`${problems.join('; ')}.`);
      const at = now();
      await db.oAuthClient.deleteMany({
        where: { registeredBy: 'dynamic', firstUsedAt: null, createdAt: { lt: new Date(at - UNUSED_CLIENT_TTL_MS) } },
      });
      if ((await db.oAuthClient.count({ where: { registeredBy: 'dynamic' } })) >= MAX_DYNAMIC_CLIENTS) {
        throw new TemporarilyUnavailableError(
          'This server holds as many client registrations as it keeps; unused ones expire within a day. Try again later.',
        );
      }
      const method = full.token_endpoint_auth_method ?? 'client_secret_basic';
      const row = await db.oAuthClient.create({
        data: {
          id: full.client_id,
          name: full.client_name?.trim() || 'Unnamed client',
          redirectUris: JSON.stringify(full.redirect_uris),
          logoUri: full.logo_uri ?? null,
          clientUri: full.client_uri ?? null,
          registeredBy: 'dynamic',
          tokenEndpointAuthMethod: method,
          secretHash: method !== 'none' && full.client_secret ? hashKey(full.client_secret) : null,
          createdAt: new Date(at),
        },
      });
      // The answer carries the secret, once; what is stored does not.
      return {
        ...clientInformation(row),
        ...(full.client_secret && method !== 'none'
          ? { client_secret: full.client_secret, client_secret_expires_at: full.client_secret_expires_at ?? 0 }
          : {}),
      };
    },
  };
}
