/** HTTP answers of the /mcp endpoint that the SDK does not produce itself. */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { bodyCapFor, tooLargeMessage } from '../http/body-caps.ts';
import { redactSecretFragments } from '../ops/redact.ts';
import { toolListing } from './registry.ts';
import type { McpAnswer } from './request.ts';
import type { ToolOutcome } from './run-tool.ts';

/**
 * An HTTP-level error in the shape of spec §2.6: {"error": code, "message": text, ...extra}. Messages may
 * quote the request (a header, a JSON parser's excerpt of the body), so secret fragments are cut out of
 * the body here, for every error answer (redaction keeps the JSON valid).
 */
export function jsonError(
  status: number,
  error: string,
  message: string,
  headers: Record<string, string> = {},
  extra: object = {},
): McpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
    body: redactSecretFragments(JSON.stringify({ error, message, ...extra })),
  };
}

/**
 * A JSON-RPC message as the one-event SSE answer the spec describes (§4), byte for byte what the SDK's
 * stateless transport writes for it, headers included (responses.test.ts holds the two side by side).
 */
export function sseMessage(message: JSONRPCMessage, headers: Record<string, string> = {}): McpAnswer {
  return {
    status: 200,
    headers: { ...SDK_SSE_HEADERS, ...headers },
    body: `event: message\ndata: ${JSON.stringify(message)}\n\n`,
  };
}

/**
 * The answer to a tools/call: sseMessage({ result, jsonrpc: '2.0', id }), byte for byte. A successful
 * result's text and structuredContent are the same JSON, so it is spliced in twice rather than the
 * value being serialized again (serializing answers was a fifth of a call's CPU).
 */
export function toolCallAnswer(
  id: string | number,
  outcome: ToolOutcome,
  headers: Record<string, string> = {},
): McpAnswer {
  const json = outcome.valueJson;
  if (json === undefined) return sseMessage({ result: outcome.result, jsonrpc: '2.0', id }, headers);
  return {
    status: 200,
    headers: { ...SDK_SSE_HEADERS, ...headers },
    body:
      `event: message\ndata: {"result":{"content":[{"type":"text","text":${JSON.stringify(json)}}],` +
      `"structuredContent":${json},"isError":false},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n\n`,
  };
}

/**
 * The answer to a tools/list without parameters, the SDK's byte for byte (responses.test.ts). The
 * listing never changes while the process runs, so its ~95 KB of JSON is serialized once, not per call.
 */
export function toolListAnswer(id: string | number, headers: Record<string, string> = {}): McpAnswer {
  listingJson ??= JSON.stringify({ tools: toolListing });
  return {
    status: 200,
    headers: { ...SDK_SSE_HEADERS, ...headers },
    body: `event: message\ndata: {"result":${listingJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n\n`,
  };
}

let listingJson: string | undefined;

const SDK_SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export function payloadTooLarge(): McpAnswer {
  return jsonError(413, 'payload_too_large', tooLargeMessage(bodyCapFor('/mcp')));
}
