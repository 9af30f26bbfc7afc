/**
 * A client registration as the MCP SDK's registration handler passes it to the clients store:
 * the client's metadata plus the id (and, for a confidential client, the secret) the handler generated.
 */
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';

export const registration = (extra: Partial<OAuthClientInformationFull> = {}): OAuthClientInformationFull => ({
  client_id: `client-${Math.random().toString(36).slice(2)}`,
  client_name: 'Example Agent',
  redirect_uris: ['http://127.0.0.1:33418/callback', 'https://agent.example/oauth/callback'],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  ...extra,
});
