/**
 * What every /mcp answer must satisfy, whatever was sent (test/system/fuzz.test.ts): no 500 and no
 * undocumented 5xx, HTTP errors in the §2.6 shape, no internals in any answer, no admitted call
 * without a valid key, and an X-Request-Id exactly on the calls that leave a usage row.
 */
import type { FuzzKeys, FuzzRequest } from './mcp-arbitraries.ts';
import type { RawAnswer } from './raw-http.ts';

/** The 503s docs/mcp-api.md documents (database_unavailable: a database outage). */
const DOCUMENTED_503 = new Set(['usage_store_unavailable', 'limiter_unavailable', 'database_unavailable']);

/** Methods answered without a key (spec §4, §5.3). */
const PUBLIC_METHODS = new Set(['initialize', 'notifications/initialized', 'tools/list']);

/**
 * Traces of internals: stack frames, source paths, modules, exception class names, SQL and driver
 * errors. A match that the request itself contains is an echo of the caller's input (an unknown tool
 * name, a parse error's excerpt), not a leak.
 */
export function internalsPatterns(serverPaths: string[]): RegExp[] {
  return [
    /\n\s+at [^\n]*/,
    /\\n\s+at [^"]*/,
    /node_modules/,
    /\.(?:ts|mjs|js|cjs):\d+/,
    /file:\/\/\//,
    /\b(?:TypeError|RangeError|ReferenceError|SyntaxError|SqliteError|PrismaClient\w*|AggregateError)\b/,
    /(?:^|")(?:[A-Z]\w*)?Error: /,
    /SQLITE_\w+/,
    /\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM)\b[^"]*\b(?:FROM|VALUES|SET|WHERE)\b/i,
    /Maximum call stack/,
    /Cannot read propert/,
    /is not a function/,
    /undefined is not/,
    ...serverPaths.map((path) => new RegExp(path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))),
  ];
}

export interface Sent {
  request: FuzzRequest;
  /** The body as the server decodes it. */
  text: string;
  /** The parsed body, when it is one JSON object. */
  message?: Record<string, unknown>;
}

export function describeSent(request: FuzzRequest): Sent {
  const text = typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const message =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  return { request, text, message };
}

/** The valid keys (pro, free) the request carries in either key header. */
export function validKeysSent(request: FuzzRequest, keys: FuzzKeys): ('pro' | 'free')[] {
  const values = [request.headers.authorization, request.headers['x-api-key']]
    .flat()
    .filter((v): v is string => typeof v === 'string');
  return (['pro', 'free'] as const).filter((kind) => values.some((value) => value.includes(keys[kind])));
}

export type Verdict =
  | { kind: 'admitted'; requestId: string; tool: string; failed: boolean }
  | { kind: 'rate_limited'; requestId: string; tool: string }
  | { kind: 'other' };

/**
 * Checks one answer; returns the problems found (empty: fine), what the answer means for usage, and a
 * label for the tally of answers ("401 missing_api_key", "200 admitted").
 */
export function checkAnswer(
  sent: Sent,
  answer: RawAnswer,
  keys: FuzzKeys,
  internals: RegExp[],
): { problems: string[]; verdict: Verdict; label: string } {
  const problems: string[] = [];
  const contentType = String(answer.headers['content-type'] ?? '');
  const requestId = answer.headers['x-request-id'] as string | undefined;
  const method = typeof sent.message?.method === 'string' ? sent.message.method : undefined;
  const params = sent.message?.params as Record<string, unknown> | undefined;
  let verdict: Verdict = { kind: 'other' };

  let errorCode: string | undefined;
  if (contentType.startsWith('application/json')) {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      problems.push('a JSON answer that is not JSON');
    }
    if (body !== undefined) {
      const error = isObject(body) ? body.error : undefined;
      const message = isObject(body) ? body.message : undefined;
      if (typeof error !== 'string' || !/^[a-z_]+$/.test(error) || typeof message !== 'string' || message.length < 10) {
        problems.push('an error body not of the §2.6 shape {error: "<code>", message: "<text>"}');
      }
      errorCode = typeof error === 'string' ? error : undefined;
    }
  } else if (answer.status >= 400) {
    problems.push(`a ${answer.status} whose body is ${contentType || 'untyped'}, not a §2.6 JSON error`);
  }

  if (answer.status === 500) problems.push('a 500');
  else if (answer.status >= 500 && !(answer.status === 503 && errorCode && DOCUMENTED_503.has(errorCode)))
    problems.push(`an undocumented ${answer.status}`);

  const echoed = [sent.text, ...Object.values(sent.request.headers).flat(), sent.request.path].join('\n');
  for (const pattern of internals) {
    const match = pattern.exec(answer.text);
    if (match && !echoed.includes(match[0])) problems.push(`internals in the answer: ${JSON.stringify(match[0])}`);
  }

  if (contentType.startsWith('text/event-stream')) {
    const data = answer.text.split('\n').filter((line) => line.startsWith('data:'));
    let rpc: unknown;
    try {
      rpc = data.length === 1 ? JSON.parse(data[0].slice(5)) : undefined;
    } catch {
      rpc = undefined;
    }
    if (!isObject(rpc) || rpc.jsonrpc !== '2.0' || 'result' in rpc === 'error' in rpc) {
      problems.push('an SSE answer that is not one JSON-RPC response');
    } else if ('result' in rpc && method === 'tools/call') {
      const result = isObject(rpc.result) ? rpc.result : undefined;
      const failed = result?.isError === true;
      const firstContent: unknown = Array.isArray(result?.content) ? result.content[0] : undefined;
      const firstText = isObject(firstContent) ? firstContent.text : undefined;
      if (failed && /"error":"internal_error"/.test(String(firstText ?? '')))
        problems.push('a tool crashed (internal_error)');
      if (!failed && result?.structuredContent === undefined)
        problems.push('a successful tool result without structuredContent');
      verdict = { kind: 'admitted', requestId: requestId ?? '', tool: String(params?.name), failed };
    }
  }
  const needsKey = sent.request.method === 'POST' && !(method !== undefined && PUBLIC_METHODS.has(method));
  if (answer.status < 300 && needsKey && validKeysSent(sent.request, keys).length === 0) {
    problems.push(
      `${method ?? 'a message'} was answered ${answer.status} although it needs a key and no valid key was sent`,
    );
  }
  if (answer.status === 429) {
    if (validKeysSent(sent.request, keys).length === 0)
      problems.push('a 429 (a metered call) for a request without a valid key');
    verdict = { kind: 'rate_limited', requestId: requestId ?? '', tool: String(params?.name) };
  }
  if (verdict.kind !== 'other' && !requestId)
    problems.push('a metered call (admitted or rate limited) without X-Request-Id');
  if (verdict.kind === 'other' && requestId)
    problems.push('X-Request-Id on an answer that is neither an admitted nor a rate-limited call');
  return { problems, verdict, label: `${answer.status} ${errorCode ?? verdict.kind}` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
