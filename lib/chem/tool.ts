/**
 * The plain tool contract between the chemistry core and the MCP layer.
 * A tool is data (name, schemas, description) plus one function; it knows nothing of HTTP,
 * keys or the database, so the MCP layer can list and call it without special cases.
 */

export type JsonSchema = Record<string, unknown>;

export interface ChemTool<Args = unknown, Result = object> {
  /** Public contract, e.g. "service_query_compound": never rename a published tool. */
  name: string;
  /** Human title. */
  title: string;
  /** What it does, for LLM clients: inputs, units, what comes back. */
  description: string;
  /** FastMCP style: {type:"object", title:"<name>Arguments", properties:{…titled…}, required, additionalProperties:false}. */
  inputSchema: JsonSchema;
  /** JSON schema (type object) that every successful result validates against. */
  outputSchema: JsonSchema;
  /** Args are already validated against inputSchema by the caller. Throws ToolError for caller mistakes. */
  run(args: Args): Result | Promise<Result>;
}

/**
 * A failure the caller caused (unknown compound, out-of-range input). The MCP layer turns it into an
 * `isError: true` tool result; any other exception is a bug on our side.
 */
export class ToolError extends Error {
  readonly code: string;
  readonly details?: Record<string, unknown>;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.details = details;
  }
}
