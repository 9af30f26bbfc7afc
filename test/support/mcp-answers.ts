/**
 * Typed readers for the JSON of an /mcp answer (McpAnswer.json). An answer that reached MCP holds a
 * JSON-RPC message (a result, or an error object); one refused in front of it (401, 403, 429, 503…)
 * holds an HTTP error body whose `error` is a code string. A test knows which it expects and reads it
 * with the matching function; the types say what the tests rely on, and a part the answer lacks fails
 * the assertion that reads it.
 */
import assert from 'node:assert/strict';
import type { McpAnswer } from './mcp-client.ts';
import type { SchemaNode } from './tool-schemas.ts';

/** The body of an answer refused before MCP: an error code and a sentence, plus a refusal's details. */
export interface ErrorBody {
  error: string;
  message: string;
  /** Why a 429: "rate_per_second" or "daily_quota". */
  reason?: string;
  tier?: string;
  upgrade?: { tier: string; daily_quota: number };
}

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A tools/call result; the service answers text content only. `Doc` is the tool's result document. */
export interface ToolCallResult<Doc = Record<string, unknown>> {
  isError: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Doc;
}

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: SchemaNode;
  outputSchema: SchemaNode;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: { name: string; version: string };
}

function jsonObject(answer: McpAnswer): Record<string, unknown> {
  assert.ok(
    typeof answer.json === 'object' && answer.json !== null,
    `a JSON object in the answer: ${answer.status} ${answer.text.slice(0, 500)}`,
  );
  return answer.json as Record<string, unknown>;
}

export function errorBody(answer: McpAnswer): ErrorBody {
  return jsonObject(answer) as unknown as ErrorBody;
}

/** A JSON-RPC answer's result, whatever the method (compare it whole, or use a typed reader below). */
export function rpcResult(answer: McpAnswer): unknown {
  return jsonObject(answer).result;
}

export function rpcError(answer: McpAnswer): RpcError {
  return jsonObject(answer).error as RpcError;
}

export function toolResult<Doc = Record<string, unknown>>(answer: McpAnswer): ToolCallResult<Doc> {
  return rpcResult(answer) as ToolCallResult<Doc>;
}

export function listedTools(answer: McpAnswer): ListedTool[] {
  return (rpcResult(answer) as { tools: ListedTool[] }).tools;
}

export function initializeResult(answer: McpAnswer): InitializeResult {
  return rpcResult(answer) as InitializeResult;
}

/** The refusal in any answer: its body when it was refused before MCP, else nothing (also without a body). */
export function refusal(answer: McpAnswer): Partial<ErrorBody> {
  const json = answer.json;
  const refused = typeof json === 'object' && json !== null && 'error' in json && typeof json.error === 'string';
  return refused ? (json as ErrorBody) : {};
}

/**
 * A tool's answer as the tool wrote it: each `source` (or `…_source`) id replaced by its citation from the
 * answer's `sources` table (lib/mcp/compact-answer.ts), the table itself dropped. For tests that compare a
 * value with the citation it was stored under.
 */
export function withCitations<Doc>(doc: Doc): Doc {
  const { sources = {}, ...rest } = doc as { sources?: Record<string, string> };
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        const cited = (key === 'source' || key.endsWith('_source')) && typeof inner === 'string';
        if (!cited) return [key, resolve(inner)];
        assert.ok(inner in sources, `source id ${inner} is in the sources table`);
        return [key, sources[inner]];
      }),
    );
  };
  return resolve(rest) as Doc;
}
