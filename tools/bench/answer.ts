/**
 * The size of a row's answer, measured by one real request to the started server before the load (see
 * main.ts): what clients receive, not what the registry holds. For /mcp that is one server-sent event
 * whose `data:` line is the JSON-RPC answer; for tools/list its result is the catalogue an agent loads.
 */
import { request } from 'node:http';
import { type LoadSpec, requestHeaders } from './load.ts';

/** One tool of a tools/list answer and the UTF-8 bytes of its JSON. */
export interface ToolSize {
  name: string;
  bytes: number;
}

export interface AnswerSize {
  status: number;
  /** The body as sent on the wire (the SSE stream for /mcp), in bytes; headers not counted. */
  bytes: number;
  /** UTF-8 bytes of the JSON-RPC answer's `result` as JSON; null when the answer has none. */
  resultBytes: number | null;
  /** tools/list: how many tools the result lists. */
  tools?: number;
  /** tools/list: each tool's JSON, largest first. */
  toolSizes?: ToolSize[];
  /** tools/call: UTF-8 bytes of the result's text content (what most clients show the model). */
  contentTextBytes?: number;
  /** The JSON-RPC error's message, or the text of a tool result with isError: the row measures no work. */
  error?: string;
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** The JSON-RPC message of an answer: the first event's `data:` lines for SSE, the body for JSON. */
function jsonRpcMessage(contentType: string, text: string): unknown {
  try {
    if (/^text\/event-stream/i.test(contentType)) {
      const event = text.split(/\r?\n\r?\n/)[0];
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''));
      return data.length ? JSON.parse(data.join('\n')) : null;
    }
    if (/^application\/json/i.test(contentType)) return JSON.parse(text);
  } catch {
    // Not JSON: only the byte count is known.
  }
  return null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** An answer's sizes, from its status, content type and body as received. */
export function describeAnswer(status: number, contentType: string, body: Buffer): AnswerSize {
  const size: AnswerSize = { status, bytes: body.length, resultBytes: null };
  const message = jsonRpcMessage(contentType, body.toString('utf8'));
  if (!isObject(message)) return size;
  if (isObject(message.error)) size.error = String(message.error.message);
  const result = message.result;
  if (!isObject(result)) return size;
  size.resultBytes = utf8Bytes(JSON.stringify(result));
  if (Array.isArray(result.tools)) {
    size.tools = result.tools.length;
    size.toolSizes = result.tools
      .map((tool) => ({ name: String(isObject(tool) ? tool.name : ''), bytes: utf8Bytes(JSON.stringify(tool)) }))
      .sort((a, b) => b.bytes - a.bytes);
  }
  if (Array.isArray(result.content)) {
    const texts = result.content.filter(isObject).flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));
    size.contentTextBytes = texts.reduce((total, text) => total + utf8Bytes(text), 0);
    if (result.isError === true) size.error = texts.join(' ').slice(0, 200);
  }
  return size;
}

/**
 * Sends the row's request once (with its first key, when it has keys) and measures the answer. node:http
 * rather than fetch, so the body is counted as it arrives, never decompressed.
 */
export function measureAnswer(spec: LoadSpec): Promise<AnswerSize> {
  const headers = requestHeaders(spec);
  if (spec.keys?.length) headers.authorization = `Bearer ${spec.keys[0]}`;
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  return new Promise((resolve, reject) => {
    const req = request(spec.url, { method: spec.method, headers, timeout: 30_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve(
          describeAnswer(response.statusCode ?? 0, response.headers['content-type'] ?? '', Buffer.concat(chunks)),
        ),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${spec.url} within 30 s`)));
    req.on('error', reject);
    req.end(body);
  });
}
