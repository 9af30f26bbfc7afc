/**
 * Checks that a parsed body is one JSON-RPC 2.0 message (spec §2.1) before anything else looks at it,
 * so every malformed body gets a precise 400 instead of whatever a later layer would make of it.
 */
import { quoteCallerText } from '../http/caller-text.ts';

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}

type EnvelopeCheck = { ok: true; message: JsonRpcMessage } | { ok: false; error: string; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkEnvelope(body: unknown): EnvelopeCheck {
  if (Array.isArray(body)) {
    return {
      ok: false,
      error: 'batch_not_supported',
      message: 'Send one JSON-RPC message per request; batches (JSON arrays) are not supported by this MCP version.',
    };
  }
  if (!isObject(body)) {
    return {
      ok: false,
      error: 'invalid_request',
      message: 'The body must be a JSON-RPC 2.0 object with "jsonrpc": "2.0", "method" and, for requests, "id".',
    };
  }
  if (body.jsonrpc !== '2.0') {
    return { ok: false, error: 'invalid_request', message: 'The "jsonrpc" field must be the string "2.0".' };
  }
  if (typeof body.method !== 'string' || body.method === '') {
    if ('result' in body || 'error' in body) {
      return {
        ok: false,
        error: 'invalid_request',
        message: 'This server sends no requests, so it accepts no JSON-RPC responses; send a request with a "method".',
      };
    }
    return {
      ok: false,
      error: 'invalid_request',
      message: 'The "method" field must be a non-empty string, e.g. "tools/call".',
    };
  }
  const unknown = Object.keys(body).find((name) => !MEMBERS.has(name));
  if (unknown !== undefined) {
    return {
      ok: false,
      error: 'invalid_request',
      message: `Unknown member ${quoteCallerText(unknown)}: a JSON-RPC request has only "jsonrpc", "id", "method" and "params".`,
    };
  }
  if ('id' in body && !(typeof body.id === 'string' || Number.isSafeInteger(body.id))) {
    return {
      ok: false,
      error: 'invalid_request',
      message: 'The "id" field must be a string or an integer (at most 2^53 - 1 in magnitude).',
    };
  }
  if ('params' in body && body.params !== undefined) {
    if (!isObject(body.params))
      return { ok: false, error: 'invalid_request', message: 'The "params" field must be an object.' };
    const metaProblem = checkMeta(body.params._meta);
    if (metaProblem) return { ok: false, error: 'invalid_request', message: metaProblem };
  }
  return { ok: true, message: body as unknown as JsonRpcMessage };
}

/**
 * The members and the params._meta rules of the SDK's JSON-RPC request and notification schemas
 * (strict objects; ids and progress tokens are strings or safe integers). Checked here so that every
 * method gets the same precise §2.6 answer: left to the SDK, these came back as a JSON-RPC "Parse
 * error" body, and a tools/call, which never reaches the SDK, was admitted and billed instead.
 * envelope.test.ts holds the two in agreement.
 */
const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

function checkMeta(meta: unknown): string | null {
  if (meta === undefined) return null;
  if (!isObject(meta)) return 'The "params._meta" field must be an object.';
  if (
    meta.progressToken !== undefined &&
    !(typeof meta.progressToken === 'string' || Number.isSafeInteger(meta.progressToken))
  ) {
    return 'The "params._meta.progressToken" field must be a string or an integer.';
  }
  const task = meta[RELATED_TASK];
  if (task !== undefined && !(isObject(task) && typeof task.taskId === 'string')) {
    return `The "params._meta.${RELATED_TASK}" field must be an object with a string "taskId".`;
  }
  return null;
}

/** tools/call params (spec §2.4): checked before admission so a malformed call costs no quota. */
export function checkToolCallParams(params: Record<string, unknown> | undefined): string | null {
  if (!params || typeof params.name !== 'string' || params.name === '') {
    return "tools/call needs params.name, the tool's name as a string (see tools/list).";
  }
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    return "tools/call params.arguments must be an object of the tool's arguments.";
  }
  return null;
}
