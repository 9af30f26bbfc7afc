/**
 * Runs one tools/call and shapes the MCP result. Failures the caller caused (unknown tool, bad
 * arguments, a compound that does not exist) are tool errors (`isError: true`) with a JSON text naming
 * the error code and what to do, as MCP intends, never JSON-RPC errors or HTTP 500s.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { prepareCompoundIndex } from '../chem/lookup.ts';
import { ToolError } from '../chem/tool.ts';
import { redactSecretFragments } from '../keys/format.ts';
import { errorText, log } from '../ops/log.ts';
import { describeArgumentErrors, registry, toolListing } from './registry.ts';

export interface ToolOutcome {
  result: CallToolResult;
  /** null on success; the error code recorded in usage otherwise. */
  errorCode: string | null;
  /**
   * On success, the value as JSON: the result's text, and also what its structuredContent serializes
   * to, so the answer can reuse it instead of serializing the value a second time (responses.ts).
   */
  valueJson?: string;
}

/** Messages and details may quote the call (a tool name, an argument), so secret fragments are cut out here. */
function toolFailure(code: string, message: string, details?: Record<string, unknown>): ToolOutcome {
  const body = { error: code, message, ...details };
  return { result: { content: [{ type: 'text', text: redactSecretFragments(JSON.stringify(body)) }], isError: true }, errorCode: code };
}

export async function callTool(name: string, args: unknown): Promise<ToolOutcome> {
  const entry = registry.get(name);
  if (!entry) {
    return toolFailure('unknown_tool', `Unknown tool "${name}". Available tools: ${toolListing.map((t) => t.name).join(', ')}.`);
  }
  const input = args ?? {};
  if (!entry.validateArguments(input)) {
    return toolFailure('invalid_arguments', `Invalid arguments for ${name}: ${describeArgumentErrors(entry.validateArguments.errors)}.`);
  }
  try {
    // Lets compound lookups match any SMILES of a structure (RDKit canonical form). Loaded once, at
    // start-up (server.ts warms it) or on the first call; after that this is a settled promise.
    await prepareCompoundIndex();
    const value = await entry.tool.run(input);
    const valueJson = JSON.stringify(value);
    return {
      result: { content: [{ type: 'text', text: valueJson }], structuredContent: value, isError: false },
      errorCode: null,
      valueJson,
    };
  } catch (error) {
    if (error instanceof ToolError) return toolFailure(error.code, error.message, error.details);
    // A bug in a tool: the caller gets a plain apology, the operator gets the stack.
    log('error', 'tool crashed', { tool: name, error: errorText(error) });
    return toolFailure('internal_error', `${name} failed unexpectedly; the error was logged. Please try again later.`);
  }
}
