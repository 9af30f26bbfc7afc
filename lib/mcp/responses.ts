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

/**
 * A JSON-RPC message as the one-event SSE answer the spec describes (§4), byte for byte what the SDK's
 * stateless transport writes for it, headers included (responses.test.ts holds the two side by side).
 */
export function sseMessage(message: JSONRPCMessage, headers: Record<string, string> = {}): Response {
  return new Response(`event: message\ndata: ${JSON.stringify(message)}\n\n`, {
    status: 200,
    headers: { ...SDK_SSE_HEADERS, ...headers },
  });
}

const SDK_SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export function payloadTooLarge(): Response {
  return jsonError(413, 'payload_too_large', `The request body exceeds ${config().maxBodyBytes} bytes; send one JSON-RPC message with smaller arguments.`);
}
