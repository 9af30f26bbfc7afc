/** Raw HTTP helpers for /mcp tests: send one JSON-RPC body, read the one SSE `data:` line back. */
export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface McpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The JSON-RPC message from the single `data:` line (SSE answers), or the JSON body (HTTP errors). */
  json: unknown;
}

export async function postMcp(url: string, body: unknown, headers: Record<string, string> = {}): Promise<McpAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const dataLines = text.split('\n').filter((line) => line.startsWith('data:'));
    if (dataLines.length !== 1) throw new Error(`expected exactly one data: line, got ${dataLines.length}:\n${text}`);
    json = JSON.parse(dataLines[0].slice('data:'.length));
  } else if (text) {
    json = JSON.parse(text);
  }
  return { status: response.status, headers: response.headers, text, json };
}

let nextId = 1;
export function rpc(method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id: nextId++, method, params };
}

export function toolCall(name: string, args: Record<string, unknown>) {
  return rpc('tools/call', { name, arguments: args });
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
