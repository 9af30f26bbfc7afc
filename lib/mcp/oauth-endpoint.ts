/**
 * /register, /authorize and /token: where an MCP client that met a 401 tries to register for OAuth. Clients
 * such as mcp-remote send their configured headers here too, so the answer can say what was wrong with the
 * key itself (missing, unknown, disabled, expired: the same check and throttle as /mcp) before saying how
 * to send one. Others (MCP Inspector) send no headers here, so "missing" says a configured key may have
 * been refused on /mcp. A 400 in the OAuth error shape, which clients show to their users.
 */
import { CALL_DEADLINE_MS } from '../db/hot-path.ts';
import { API_KEY_HOW_TO, type OAuthErrorBody } from '../http/oauth-refusal.ts';
import { redactSecretFragments } from '../ops/redact.ts';
import { checkKey } from './handler.ts';
import type { McpAnswer, McpRequest } from './request.ts';

export async function answerOAuthEndpoint(request: McpRequest): Promise<McpAnswer> {
  const now = Date.now();
  const checked = await checkKey(request, now, now + CALL_DEADLINE_MS, {});
  let verdict = 'Your API key is valid: no OAuth step is needed.';
  if (!checked.ok) {
    const refusal = JSON.parse(String(checked.answer.body)) as { error: string; message: string };
    verdict =
      refusal.error === 'missing_api_key'
        ? `${refusal.error}: no API key reached this OAuth endpoint. Some clients (MCP Inspector) do not send their headers here: if you configured a key, /mcp refused it; run the client without OAuth (Inspector CLI: --stored-auth-only) to see why.`
        : `${refusal.error}: ${refusal.message}`;
  }
  const body: OAuthErrorBody = { error: 'invalid_request', error_description: `${verdict} ${API_KEY_HOW_TO}` };
  return {
    status: 400,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'access-control-allow-origin': '*' },
    body: redactSecretFragments(JSON.stringify(body)),
  };
}
