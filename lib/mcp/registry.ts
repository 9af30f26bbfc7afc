/**
 * The tool registry: the chemistry tools as MCP sees them, with their argument validators compiled
 * once at start-up (the hot path never compiles a schema).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { editDistance } from '../chem/edit-distance.ts';
import type { ChemTool } from '../chem/tool.ts';
import { chemTools } from '../chem/tools/index.ts';
import { callerText, quoteCallerText } from '../http/caller-text.ts';
import { UNKNOWN_TOOL } from '../ops/call-labels.ts';

interface RegisteredTool {
  tool: ChemTool;
  validateArguments: ValidateFunction;
  /** The tools/list entry, built once. */
  listing: {
    name: string;
    title: string;
    description: string;
    inputSchema: object;
    outputSchema: object;
    annotations: typeof TOOL_ANNOTATIONS;
  };
}

/**
 * What every tool is, for clients that decide by hints (auto-approval, retries): each computes from its
 * arguments and our data only — it changes nothing, reaches no outside system, and the same call gives the
 * same answer. (destructiveHint is left out: MCP reads it only when readOnlyHint is false.)
 */
export const TOOL_ANNOTATIONS = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** One Ajv for the service: tool arguments here, and the SDK's own validation (lib/mcp/sdk-server.ts). */
export const sharedAjv = new Ajv({ strict: false, allErrors: true });

function register(tool: ChemTool): RegisteredTool {
  return {
    tool,
    validateArguments: sharedAjv.compile(tool.inputSchema),
    listing: {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: TOOL_ANNOTATIONS,
    },
  };
}

export const registry: ReadonlyMap<string, RegisteredTool> = new Map(chemTools.map((t) => [t.name, register(t)]));
export const toolListing = [...registry.values()].map((r) => r.listing);

/** The name a call is recorded under: the tool's own name, or UNKNOWN_TOOL (never the caller's text). */
export function toolLabel(name: string): string {
  return registry.has(name) ? name : UNKNOWN_TOOL;
}

/**
 * The arguments with aliases renamed to the argument they stand for ({unit: "K"} → {temperature_unit: "K"}
 * on a tool that takes a temperature), or the sentence saying an argument was given under two names.
 * Anything other than a plain object is left to the schema check.
 */
export function canonicalArguments(
  input: unknown,
  aliases: Record<string, string> | undefined,
): { args: unknown } | { conflict: string } {
  if (!aliases || typeof input !== 'object' || input === null || Array.isArray(input)) return { args: input };
  const given = input as Record<string, unknown>;
  if (!Object.keys(aliases).some((alias) => Object.hasOwn(given, alias))) return { args: input };
  const args: Record<string, unknown> = {};
  const givenAs = new Map<string, string>();
  for (const [name, value] of Object.entries(given)) {
    const canonical = Object.hasOwn(aliases, name) ? aliases[name] : name;
    const earlier = givenAs.get(canonical);
    if (earlier !== undefined)
      return { conflict: `"${earlier}" and "${name}" are the same argument: give it once, as "${canonical}"` };
    givenAs.set(canonical, name);
    args[canonical] = value;
  }
  return { args };
}

/** At most this many of Ajv's errors are described (it collects them all: a call may send thousands). */
const MAX_DESCRIBED_ERRORS = 5;

/**
 * Ajv's errors as one sentence a person (or a model) can act on. Argument names the caller made up are
 * caller text (callerText); the rest comes from the schema.
 */
export function describeArgumentErrors(
  errors: ErrorObject[] | null | undefined,
  inputSchema: { properties?: Record<string, unknown> } = {},
): string {
  const known = Object.keys(inputSchema.properties ?? {});
  if (!errors?.length) return "arguments do not match the tool's input schema";
  const described = errors
    .slice(0, MAX_DESCRIBED_ERRORS)
    .map((e) => {
      const field = e.instancePath ? callerText(e.instancePath.slice(1).replaceAll('/', '.')) : '';
      switch (e.keyword) {
        case 'required':
          return `missing required argument "${e.params.missingProperty}"`;
        case 'additionalProperties': {
          const name = String(e.params.additionalProperty);
          const near = closestArgument(name, known);
          const hint = near ? ` (did you mean "${near}"?)` : known.length ? ` (arguments: ${known.join(', ')})` : '';
          return `unknown argument ${quoteCallerText(name)}${hint}`;
        }
        case 'type':
          return `argument "${field}" must be of type ${e.params.type}`;
        case 'enum':
          return `argument "${field}" must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
        default:
          return field ? `argument "${field}" ${e.message}` : `arguments ${e.message}`;
      }
    })
    .join('; ');
  const more = errors.length - MAX_DESCRIBED_ERRORS;
  return more > 0 ? `${described}; and ${more} more problem${more === 1 ? '' : 's'}` : described;
}

/**
 * The tool's argument an unknown one most likely meant: one it ends or starts with ("temperature_unit" →
 * "unit", "compound" → "compound_name"), else one a few typing slips away ("temprature").
 */
function closestArgument(name: string, known: readonly string[]): string | undefined {
  const key = name.toLowerCase();
  const affix = known.find((k) => key.endsWith(`_${k}`) || k.startsWith(`${key}_`) || k.endsWith(`_${key}`));
  if (affix) return affix;
  const limit = Math.max(1, Math.floor(key.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(key, k, limit);
    if (distance <= limit && (!best || distance < best.distance)) best = { name: k, distance };
  }
  return best?.name;
}
