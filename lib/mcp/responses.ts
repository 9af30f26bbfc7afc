/** HTTP answers of the /mcp endpoint that the SDK does not produce itself. */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { config } from '../config.ts';

/** An HTTP-level error in the shape of spec §2.6: {"error": code, "message": text, ...extra}. */
export function jsonError(status: number, error: string, message: string, headers: HeadersInit = {}, extra: object = {}): Response {
  return new Response(JSON.stringify({ error, message, ...extra }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** A JSON-RPC message as the one-event SSE answer the spec describes (§4). */
export function sseMessage(message: JSONRPCMessage, headers: HeadersInit = {}): Response {
  return new Response(`event: message\ndata: ${JSON.stringify(message)}\n\n`, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers },
  });
}

export function payloadTooLarge(): Response {
  return jsonError(413, 'payload_too_large', `The request body exceeds ${config().maxBodyBytes} bytes; send one JSON-RPC message with smaller arguments.`);
}
