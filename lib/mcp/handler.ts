/**
 * POST /mcp: one request in, one answer out, called by server.ts through node-request.ts. It
 * decides whether a method needs a key, verifies the key, and hands a tools/call to answerToolCall
 * (tool-call.ts: admit through the limiter, run the tool, commit the usage row, then answer). The SDK's stateless transport
 * answers the other methods. Two answers are written here, in exactly the form the SDK gives them
 * (responses.test.ts compares them):
 * - tools/call: by then everything the SDK would check has been checked, and its zod validation of
 *   the computed result and its stream plumbing cost ~170 µs a call, a fifth of the hot path;
 * - tools/list without params: the listing is fixed, so its ~95 KB of JSON is serialized once.
 */

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { config } from '../config.ts';
import type { KeyRow } from '../db/hot-path.ts';
import { CALL_DEADLINE_MS } from '../db/hot-path.ts';
import { bodyCapFor } from '../http/body-caps.ts';
import { callerText, quoteCallerText } from '../http/caller-text.ts';
import { hashKey } from '../keys/hash.ts';
import type { Verification } from '../keys/verify.ts';
import type { KeyAuthThrottle } from '../limits/key-auth-throttle.ts';
import { bearerChallenge, publicOrigin } from '../oauth/paths.ts';
import { readableAddress } from '../usage/refused-calls.ts';
import { corsHeaders, originAllowed, preflightHeaders } from './cors.ts';
import { readCredentials } from './credentials.ts';
import { checkEnvelope, checkToolCallParams, type JsonRpcMessage } from './envelope.ts';
import { hostRefusal } from './host-check.ts';
import { type BodyText, INVALID_UTF8, type McpAnswer, type McpRequest, TOO_LARGE } from './request.ts';
import { jsonError, payloadTooLarge, sseMessage, toolListAnswer } from './responses.ts';
import { createMcpServer } from './sdk-server.ts';
import { getMcpService } from './service.ts';
import { answerToolCall, databaseUnavailable } from './tool-call.ts';

/** Methods the spec lets through without a key (§4, §5.3). */
const PUBLIC_METHODS = new Set(['initialize', 'notifications/initialized', 'tools/list']);

const MISSING_KEY_MESSAGE =
  'This method needs an API key. Send it as "Authorization: Bearer <key>" or in the "X-API-Key: <key>" header.';

export async function handleMcpRequest(request: McpRequest): Promise<McpAnswer> {
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

  const service = getMcpService();
  const now = Date.now();
  // One deadline for every wait on the database: key lookup, quota lookup, usage commit.
  const deadline = now + CALL_DEADLINE_MS;
  const checked = await checkKey(request, now, deadline, cors);
  if (!checked.ok) return checked.answer;
  if (message.method !== 'tools/call') return runSdk(request, message, cors);

  // tools/call: check the call itself; answerToolCall admits, runs, records and answers it.
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
  return answerToolCall(
    {
      request,
      id: message.id,
      name: message.params!.name as string,
      args: message.params!.arguments,
      key: checked.key,
    },
    service,
    now,
    deadline,
    cors,
  );
}

/** The WWW-Authenticate of a 401: it points OAuth clients at the protected-resource metadata. */
function challenge(request: McpRequest, message: string, error?: 'invalid_token'): string {
  return bearerChallenge(publicOrigin(request.url, config().publicUrl), message, error);
}

/**
 * The request's key, verified, or the answer refusing it: 401 missing_api_key or invalid_api_key (with
 * the key-authentication throttle), 400 for two different keys, 503 when the database cannot say.
 */
async function checkKey(
  request: McpRequest,
  now: number,
  deadline: number,
  cors: Record<string, string>,
): Promise<{ ok: true; key: KeyRow } | { ok: false; answer: McpAnswer }> {
  const refuse = (answer: McpAnswer) => ({ ok: false as const, answer });
  const credentials = readCredentials(request.headers);
  switch (credentials.kind) {
    case 'missing':
      return refuse(
        jsonError(401, 'missing_api_key', MISSING_KEY_MESSAGE, {
          'www-authenticate': challenge(request, MISSING_KEY_MESSAGE),
          ...cors,
        }),
      );
    case 'bad_header':
      return refuse(
        jsonError(401, 'invalid_api_key', credentials.message, {
          'www-authenticate': challenge(request, credentials.message, 'invalid_token'),
          ...cors,
        }),
      );
    case 'conflict':
      return refuse(
        jsonError(
          400,
          'conflicting_api_keys',
          'The Authorization and X-API-Key headers carry different keys; send one key (either header is enough).',
          cors,
        ),
      );
  }
  const service = getMcpService();
  let verified: Verification;
  try {
    verified = await service.verifyKey(credentials.key, now, deadline);
  } catch (error) {
    return refuse(databaseUnavailable('key lookup failed', error, cors));
  }
  // A key that exists but no longer works: kept per key, so its owner sees the secret is still being tried.
  if (!verified.ok && 'keyId' in verified) {
    service.refusedCalls.note({
      keyId: verified.keyId,
      reason: verified.reason,
      clientAddress: readableAddress(request.clientAddress),
      at: now,
      day: service.quotaDay(now).day,
    });
  }
  if (!verified.ok || !service.keyAuthThrottle.admits(request.clientAddress, verified.key.id, now)) {
    return refuse(await refusedKey(service.keyAuthThrottle, request, credentials.key, verified, now, cors));
  }
  return { ok: true, key: verified.key };
}

/**
 * The 401 for a key that failed, or that may not be used from a locked address (key-auth-throttle.ts).
 * Locked, every key gets the same answer, so it tells a scanner nothing about the key it tried; the spec
 * (§5.6) keeps it a 401 invalid_api_key, with Retry-After saying when the address may try again.
 */
async function refusedKey(
  throttle: KeyAuthThrottle,
  request: McpRequest,
  key: string,
  verified: Verification,
  now: number,
  cors: Record<string, string>,
): Promise<McpAnswer> {
  const address = request.clientAddress;
  const refuse = (message: string, extra: Record<string, string> = {}) =>
    jsonError(401, 'invalid_api_key', message, {
      'www-authenticate': challenge(request, message, 'invalid_token'),
      ...cors,
      ...extra,
    });
  const lockedMs = verified.ok ? throttle.lockedFor(address, now) : await throttle.failed(address, hashKey(key), now);
  if (!verified.ok && lockedMs === 0) return refuse(verified.message);
  const seconds = Math.max(1, Math.ceil(lockedMs / 1000));
  const { limit, windowMs } = throttle.failures;
  const message =
    `Too many failed API keys came from this address (${limit} different keys within ${windowMs / 1000} s), so keys sent from it are refused ` +
    `until ${new Date(now + seconds * 1000).toISOString()}: retry in ${seconds} s. Keys that already worked from this address keep working.`;
  return refuse(message, { 'retry-after': String(seconds) });
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
