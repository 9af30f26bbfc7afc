/**
 * The plain tool contract between the chemistry core and the MCP layer.
 * A tool is data (name, schemas, description, example) plus one function; it knows nothing of HTTP,
 * keys or the database, so the MCP layer can list and call it without special cases.
 */
import type { ToolErrorCode } from './error-codes.ts';

export type JsonSchema = Record<string, unknown>;

/**
 * One tool, everything about it. `Answer` is what run() returns: the result object, or a promise of it for a
 * tool that waits (RDKit, the name table), or either where only some inputs wait.
 */
export interface ChemTool<Args = unknown, Answer extends object | Promise<object> = object | Promise<object>> {
  /** Public contract, e.g. "service_query_compound": never rename a published tool. */
  name: string;
  /** Human title. */
  title: string;
  /**
   * What it does, for LLM clients, in a few sentences: inputs, units, defaults, what comes back. It is
   * loaded into every agent session with tools/list, so details go in `details`.
   */
  description: string;
  /** The rest of the manual (methods, data, limits): docs/tools.md only, never tools/list. */
  details?: string[];
  /**
   * Other spellings of arguments, accepted and read as the argument they name ({unit: "temperature_unit"}):
   * older names and the ones agents guess. Not listed in the input schema.
   */
  argumentAliases?: Record<string, string>;
  /** FastMCP style: {type:"object", title:"<name>Arguments", properties:{…titled…}, required, additionalProperties:false}. */
  inputSchema: JsonSchema;
  /** JSON schema (type object) that every successful result validates against. */
  outputSchema: JsonSchema;
  /**
   * One representative call's arguments: docs/tools.md and the portal's docs page show it (docs/tools.md with
   * the answer it really gives), and the system tests make it through /mcp, so the documented call works.
   */
  example: Args;
  /** Args are already validated against inputSchema by the caller. Throws ToolError for caller mistakes. */
  run(args: Args): Answer;
}

/**
 * A tool, typed by its arguments and answer, so its example and run() are checked against them. Each file
 * of tools/ defines one; tools/index.ts lists them, and everything that shows or calls a tool reads that list.
 */
export function defineTool<Args, Answer extends object | Promise<object>>(
  tool: ChemTool<Args, Answer>,
): ChemTool<Args, Answer> {
  return tool;
}

/**
 * A failure the caller caused (unknown compound, out-of-range input). The MCP layer turns it into an
 * `isError: true` tool result; any other exception is a bug on our side.
 */
export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ToolErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.details = details;
  }
}
