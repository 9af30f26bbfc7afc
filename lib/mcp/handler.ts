/**
 * POST /mcp: one request in, one answer out, called by server.ts through node-request.ts with the services
 * it built before listening (service.ts). It decides whether a method needs a key, has the key
 * authenticated (lib/keys/authenticate.ts), and hands a tools/call to answerToolsCall (tools-call.ts:
 * admit through the limiter, run the tool, record the usage row, then answer). The SDK's stateless transport
 * answers the other methods. Two answers are written here, in exactly the form the SDK gives them
 * (responses.test.ts compares them):
 * - tools/call: by then everything the SDK would check has been checked, and its zod validation of
 *   the computed result and its stream plumbing cost ~170 µs a call, a fifth of the hot path;
 * - tools/list without params: the listing is fixed, so its ~95 KB of JSON is serialized once.
 */

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { config } from '../config.ts';
import { CALL_DEADLINE_MS } from '../db/hot-path.ts';
import { bodyCapFor } from '../http/body-caps.ts';
import { callerText, quoteCallerText } from '../http/caller-text.ts';
import type { Authentication } from '../keys/authenticate.ts';
import { bearerChallenge, publicOrigin } from '../oauth/paths.ts';
import { readableAddress } from '../usage/refused-calls.ts';
import { corsHeaders, originAllowed, preflightHeaders } from './cors.ts';
import { readCredentials } from './credentials.ts';
import { checkEnvelope, checkToolCallParams, type JsonRpcMessage } from './envelope.ts';
import { hostRefusal } from './host-check.ts';
import { type BodyText, INVALID_UTF8, type McpAnswer, type McpRequest, TOO_LARGE } from './request.ts';
import { jsonError, payloadTooLarge, sseMessage, toolListAnswer } from './responses.ts';
import { createMcpServer } from './sdk-server.ts';
import type { McpService } from './service.ts';
import { answerToolsCall, databaseUnavailable } from './tools-call.ts';

/** Methods the spec lets through without a key (§4, §5.3). */
const PUBLIC_METHODS = new Set(['initialize', 'notifications/initialized', 'tools/list']);

type McpHandler = (request: McpRequest) => Promise<McpAnswer>;

/** The /mcp handler on `service`: built once by server.ts, before it listens. */
export function createMcpHandler(service: McpService): McpHandler {
  return (request) => handleMcpRequest(service, request);
}

async function handleMcpRequest(service: McpService, request: McpRequest): Promise<McpAnswer> {
  const wrongHost = hostRefusal(request);
  if (wrongHost) return wrongHost;
  const origin = request.headers.get('origin');
  if (origin && !originAllowed(origin)) {
    return jsonError(
      403,
      'origin_not_allowed',
      `Browser requests from ${quoteCallerText(origin)} are not allowed; the operator can add it to CORS_ORIGINS.`,
    );
  }
  const cors = corsHeaders(origin);
  if (request.method === 'OPTIONS') {
    return { status: 204, headers: origin ? preflightHeaders(origin) : { allow: 'POST, OPTIONS' }, body: null };
  }
  if (request.method !== 'POST') {
    return jsonError(
      405,
      'method_not_allowed',
      `/mcp accepts POST only (stateless Streamable HTTP: there is no stream to GET and no session to DELETE).`,
      { allow: 'POST', ...cors },
    );
  }

  const bad = checkHeaders(request);
  if (bad) return withHeaders(bad, cors);
  const body = parseJsonBody(await request.readText(bodyCapFor('/mcp').bytes));
  if (body instanceof ParseFailure) return withHeaders(body.answer, cors);
  const envelope = checkEnvelope(body);
  if (!envelope.ok) return jsonError(400, envelope.error, envelope.message, cors);
  const message = envelope.message;

  if (message.method === 'tools/list' && message.id !== undefined && hasNoParams(message))
    return toolListAnswer(message.id, cors);
  if (PUBLIC_METHODS.has(message.method)) return runSdk(request, message, cors);

  const now = Date.now();
  const context = { service, now, deadline: now + CALL_DEADLINE_MS, cors };
  const authentication = await service.authenticateKey(readCredentials(request.headers), {
    clientAddress: request.clientAddress,
    now,
    deadline: context.deadline,
  });
  if (!authentication.ok) return refusedKey(request, authentication, service, context);
  if (message.method !== 'tools/call') return runSdk(request, message, cors);

  // tools/call: check the call itself; answerToolsCall admits, runs, records and answers it.
  if (message.id === undefined) {
    return jsonError(
      400,
      'invalid_request',
      'tools/call is a request: give it an "id" so its answer can be matched.',
      cors,
    );
  }
  const paramsProblem = checkToolCallParams(message.params);
  if (paramsProblem) {
    return sseMessage({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: paramsProblem } }, cors);
  }
  return answerToolsCall(
    {
      request,
      id: message.id,
      name: message.params!.name as string,
      args: message.params!.arguments,
      key: authentication.key,
    },
    context,
  );
}

/**
 * The answer refusing a key: 401 (with the challenge that points OAuth clients at the protected-resource
 * metadata), 400 for two different keys, 503 when the database cannot say. A key that exists but no
 * longer works is counted per key, so its owner sees the secret is still being tried.
 */
function refusedKey(
  request: McpRequest,
  refusal: Exclude<Authentication, { ok: true }>,
  service: McpService,
  { now, cors }: { now: number; cors: Record<string, string> },
): McpAnswer {
  if (refusal.error === 'database_unavailable') return databaseUnavailable('key lookup failed', refusal.cause, cors);
  if (refusal.stopped) {
    service.refusedCalls.note({
      ...refusal.stopped,
      clientAddress: readableAddress(request.clientAddress),
      at: now,
      day: service.quotaDay(now).day,
    });
  }
  if (refusal.error === 'conflicting_api_keys') return jsonError(400, refusal.error, refusal.message, cors);
  return jsonError(401, refusal.error, refusal.message, {
    'www-authenticate': bearerChallenge(
      publicOrigin(request.url, config().publicUrl),
      refusal.message,
      refusal.tokenError,
    ),
    ...cors,
    ...(refusal.retryAfterSeconds ? { 'retry-after': String(refusal.retryAfterSeconds) } : {}),
  });
}

/**
 * No params, or empty ones: the plain discovery call, answered from the cached listing. Anything else
 * (a cursor, _meta) goes to the SDK, which validates it.
 */
function hasNoParams(message: JsonRpcMessage): boolean {
  return message.params === undefined || Object.keys(message.params).length === 0;
}

function checkHeaders(request: McpRequest): McpAnswer | null {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    return jsonError(415, 'unsupported_media_type', 'Send the JSON-RPC message with "Content-Type: application/json".');
  }
  const accept = request.headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return jsonError(
      406,
      'not_acceptable',
      'Send "Accept: application/json, text/event-stream": answers come as a server-sent event.',
    );
  }
  // Checked here, not left to the SDK, so that a tools/call it would refuse is never admitted or billed.
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return jsonError(
      400,
      'unsupported_protocol_version',
      `MCP-Protocol-Version ${quoteCallerText(version)} is not supported; use one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
    );
  }
  return null;
}

/** A body that is not one JSON value; kept apart from the parsed value, which may be any JSON. */
class ParseFailure {
  constructor(readonly answer: McpAnswer) {}
}

function parseJsonBody(text: BodyText): unknown {
  if (text === TOO_LARGE) return new ParseFailure(payloadTooLarge());
  if (text === INVALID_UTF8) {
    return new ParseFailure(
      jsonError(
        400,
        'parse_error',
        'The request body is not valid UTF-8; send the JSON-RPC message as UTF-8 text (JSON must be UTF-8, RFC 8259 §8.1).',
      ),
    );
  }
  if (text.trim() === '')
    return new ParseFailure(jsonError(400, 'parse_error', 'The request body is empty; send one JSON-RPC 2.0 message.'));
  try {
    return JSON.parse(text);
  } catch (error) {
    return new ParseFailure(
      jsonError(
        400,
        'parse_error',
        `The request body is not valid JSON (${callerText((error as Error).message, 200)}).`,
      ),
    );
  }
}

/** Hands a method other than tools/call to a single-use SDK server and transport. */
async function runSdk(
  request: McpRequest,
  message: JsonRpcMessage,
  headers: Record<string, string>,
): Promise<McpAnswer> {
  const server = createMcpServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: false,
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request.toWebRequest(), { parsedBody: message });
  // Stateless: the SSE stream holds one event and ends with it, so reading it whole is safe.
  const answer = {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: response.body ? await response.text() : null,
  };
  return withHeaders(answer, headers);
}

function withHeaders(answer: McpAnswer, headers: Record<string, string>): McpAnswer {
  Object.assign(answer.headers, headers);
  return answer;
}
