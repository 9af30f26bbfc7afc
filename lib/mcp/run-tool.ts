/**
 * Runs one tools/call and shapes the MCP result. Failures the caller caused (unknown tool, bad
 * arguments, a compound that does not exist) are tool errors (`isError: true`) with a JSON text naming
 * the error code and what to do, as MCP intends, never JSON-RPC errors or HTTP 500s.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolErrorCode } from '../chem/error-codes.ts';
import { prepareCompoundIndex } from '../chem/lookup.ts';
import { ToolError } from '../chem/tool.ts';
import { quoteCallerText } from '../http/caller-text.ts';
import { errorText, log } from '../ops/log.ts';
import { redactSecretFragments } from '../ops/redact.ts';
import { compactAnswer } from './compact-answer.ts';
import { canonicalArguments, describeArgumentErrors, registry, toolListing } from './registry.ts';

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
function toolFailure(code: ToolErrorCode, message: string, details?: Record<string, unknown>): ToolOutcome {
  const body = { error: code, message, ...details };
  return {
    result: { content: [{ type: 'text', text: redactSecretFragments(JSON.stringify(body)) }], isError: true },
    errorCode: code,
  };
}

export async function runTool(name: string, args: unknown): Promise<ToolOutcome> {
  const entry = registry.get(name);
  if (!entry) {
    return toolFailure(
      'unknown_tool',
      `Unknown tool ${quoteCallerText(name)}: call tools/list for the tools and their arguments. Available tools: ${toolListing.map((t) => t.name).join(', ')}.`,
    );
  }
  const named = canonicalArguments(args ?? {}, entry.tool.argumentAliases);
  if ('conflict' in named) return toolFailure('invalid_arguments', `Invalid arguments for ${name}: ${named.conflict}.`);
  const input = named.args;
  if (!entry.validateArguments(input)) {
    return toolFailure(
      'invalid_arguments',
      `Invalid arguments for ${name}: ${describeArgumentErrors(entry.validateArguments.errors, entry.tool.inputSchema)}.`,
    );
  }
  try {
    // Lets compound lookups match any SMILES of a structure (RDKit canonical form). Loaded once, at
    // start-up (server.ts warms it) or on the first call; after that this is a settled promise.
    await prepareCompoundIndex();
    const value = await entry.tool.run(input);
    const overflow = nonFinitePath(value);
    if (overflow !== null) {
      return toolFailure(
        'result_out_of_range',
        `${name} cannot compute a finite result for these inputs (${overflow || 'the result'} is not a finite number): they are outside what the tool can compute. Use smaller magnitudes.`,
        { field: overflow || null },
      );
    }
    const answer = compactAnswer(value);
    const valueJson = JSON.stringify(answer);
    return {
      // A tool's result is a plain JSON object (its outputSchema is of type object).
      result: {
        content: [{ type: 'text', text: valueJson }],
        structuredContent: answer,
        isError: false,
      },
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

/**
 * Where a result holds a number JSON cannot carry (Infinity, NaN: JSON.stringify would send null, which
 * the output schema does not allow), as a dotted path, or null when every number is finite. Checked here
 * for every tool: an input near the edge of the double range can overflow any formula. Results are a
 * few dozen values, so the walk costs microseconds.
 */
function nonFinitePath(value: unknown, path = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nonFinitePath(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const key in value) {
    const found = nonFinitePath((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}
