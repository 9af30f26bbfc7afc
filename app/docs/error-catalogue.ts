/**
 * The errors a caller of /mcp can meet, as the docs page lists them. HTTP-level errors follow the spec
 * (§2.6 body, §5 and §7 codes) and docs/mcp-api.md; keep them in step when one is added. Tool errors come
 * from lib/chem/error-codes.ts.
 */
import { TOOL_ERROR_CODES, type ToolErrorCode } from '@/lib/chem/error-codes.ts';

export interface HttpError {
  status: number;
  error: string;
  when: string;
  remedy: string;
}

export const HTTP_ERRORS: HttpError[] = [
  {
    status: 400,
    error: 'parse_error',
    when: 'The body is empty, not UTF-8, or not JSON.',
    remedy: 'Send one JSON-RPC message as the body, encoded as UTF-8.',
  },
  {
    status: 400,
    error: 'invalid_request',
    when: 'The body is not one JSON-RPC 2.0 message: wrong "jsonrpc", no "method", an "id" or "params" of the wrong type, or tools/call sent as a notification.',
    remedy: 'Send {"jsonrpc": "2.0", "id": …, "method": …, "params": {…}}.',
  },
  {
    status: 400,
    error: 'batch_not_supported',
    when: 'The body is a JSON array (MCP 2025-06-18 dropped batching).',
    remedy: 'Send one message per request.',
  },
  {
    status: 400,
    error: 'unsupported_protocol_version',
    when: 'The MCP-Protocol-Version header names a version the service does not support.',
    remedy: 'Use the version initialize negotiated, or leave the header out.',
  },
  {
    status: 400,
    error: 'conflicting_api_keys',
    when: 'Authorization and X-API-Key carry different keys.',
    remedy: 'Send one key, in one header.',
  },
  {
    status: 401,
    error: 'missing_api_key',
    when: 'A method that needs a key (tools/call and every method but initialize, notifications/initialized and tools/list) came without one.',
    remedy: 'Add "Authorization: Bearer cf_…" (recommended) or "X-API-Key: cf_…".',
  },
  {
    status: 401,
    error: 'invalid_api_key',
    when: 'The key is malformed, unknown, disabled or expired; the message says which.',
    remedy: 'Check the key on your keys page; reissue or create one if it was disabled or expired.',
  },
  {
    status: 403,
    error: 'https_required',
    when: "Plain HTTP from anywhere but the server's own machine.",
    remedy: 'Use the https:// address.',
  },
  {
    status: 403,
    error: 'host_not_allowed',
    when: 'The Host header names a host this server is not published under (a protection against DNS rebinding).',
    remedy: 'Call the service at its published address; an operator adds other names to ALLOWED_HOSTS.',
  },
  {
    status: 403,
    error: 'origin_not_allowed',
    when: 'A browser page from an origin the operator has not allowed (CORS_ORIGINS).',
    remedy: 'Call from your backend, or ask the operator to allow the origin.',
  },
  {
    status: 405,
    error: 'method_not_allowed',
    when: 'An HTTP method other than POST (the answer carries Allow: POST).',
    remedy: 'Use POST.',
  },
  {
    status: 406,
    error: 'not_acceptable',
    when: 'Accept lacks application/json or text/event-stream.',
    remedy: 'Send "Accept: application/json, text/event-stream".',
  },
  {
    status: 413,
    error: 'payload_too_large',
    when: 'The body is larger than the server accepts (1 MiB by default).',
    remedy: 'Send smaller arguments.',
  },
  {
    status: 415,
    error: 'unsupported_media_type',
    when: 'Content-Type is not application/json.',
    remedy: 'Send "Content-Type: application/json".',
  },
  {
    status: 429,
    error: 'rate_limit_exceeded',
    when: 'Over the key\'s calls per second or its daily quota; "reason" says which ("rate_per_second" or "daily_quota").',
    remedy: 'Wait the Retry-After seconds, lower the call rate, or ask for Pro (the "upgrade" field says how).',
  },
  {
    status: 503,
    error: 'usage_store_unavailable',
    when: 'The call ran, but its usage record could not be saved, so the answer was withheld (it is not in your usage).',
    remedy: 'Retry after the Retry-After seconds.',
  },
  {
    status: 503,
    error: 'database_unavailable',
    when: 'The service could not reach its database to check the key or its quota, so the call was not run.',
    remedy: 'Retry after the Retry-After seconds.',
  },
  {
    status: 503,
    error: 'limiter_unavailable',
    when: 'A deployment of several instances could not reach its shared rate limiter, so the call was not run.',
    remedy: 'Retry after the Retry-After seconds.',
  },
];

export interface ToolErrorRow {
  error: ToolErrorCode;
  when: string;
}

/**
 * Tool failures: an ordinary tools/call result with isError: true and {"error", "message", …} as its text.
 * From lib/chem/error-codes.ts, the one list ToolError accepts, so the page cannot miss a code.
 */
export const TOOL_ERRORS: ToolErrorRow[] = (
  Object.entries(TOOL_ERROR_CODES) as [ToolErrorCode, { meaning: string; next: string }][]
).map(([error, e]) => ({ error, when: `${e.meaning} ${e.next}` }));

export const JSON_RPC_ERRORS = [
  { code: -32601, name: 'Method not found', when: 'A method the service does not offer (asked with a valid key).' },
  {
    code: -32602,
    name: 'Invalid params',
    when: 'tools/call without a tool name or with non-object arguments. Costs no quota.',
  },
];
