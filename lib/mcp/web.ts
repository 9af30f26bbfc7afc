/** The /mcp handler for Web Requests: app/mcp/route.ts (next dev, serverless hosts) and in-process tests. */
import { readTextCapped } from '../http/read-text-capped.ts';
import { handleMcpRequest } from './http.ts';
import type { McpRequest } from './request.ts';

export async function handleWebMcpRequest(request: Request): Promise<Response> {
  const adapted: McpRequest = {
    method: request.method,
    url: request.url,
    headers: request.headers,
    readText: (limit) => readTextCapped(request, limit),
    toWebRequest: () => new Request(request.url, { method: request.method, headers: request.headers }),
  };
  const answer = await handleMcpRequest(adapted);
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
