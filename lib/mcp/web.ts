/** The /mcp handler for Web Requests: app/mcp/route.ts (next dev, serverless hosts) and in-process tests. */
import { readTextCapped } from '../http/read-text-capped.ts';
import { CLIENT_IP_HEADER } from '../http/transport-security.ts';
import { handleMcpRequest } from './handler.ts';
import { INVALID_UTF8, type McpRequest } from './request.ts';

export async function handleWebMcpRequest(request: Request): Promise<Response> {
  const adapted: McpRequest = {
    method: request.method,
    url: request.url,
    headers: request.headers,
    // Stamped by server.ts over whatever the client sent; absent under next dev.
    clientAddress: request.headers.get(CLIENT_IP_HEADER) ?? undefined,
    readText: (limit) => readTextCapped(request, limit, { fatal: true }).catch(invalidUtf8),
    toWebRequest: () => new Request(request.url, { method: request.method, headers: request.headers }),
  };
  const answer = await handleMcpRequest(adapted);
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** The strict decoder's refusal of malformed UTF-8, as the handler's INVALID_UTF8; other errors pass on. */
function invalidUtf8(error: unknown): typeof INVALID_UTF8 {
  if ((error as { code?: unknown })?.code === 'ERR_ENCODING_INVALID_ENCODED_DATA') return INVALID_UTF8;
  throw error;
}
