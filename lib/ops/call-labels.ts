/**
 * How a tools/call is labelled in usage rows, logs and metrics: the tool it named and how it ended.
 */
import { chemTools } from '../chem/tools/index.ts';

/**
 * What usage rows, logs and metrics record for a tools/call naming no tool in the catalogue: a constant,
 * never the caller's text (a name may be a megabyte long, or hold a secret).
 */
export const UNKNOWN_TOOL = 'unknown_tool';

/** Every label a call can be recorded under: the tools' names and UNKNOWN_TOOL (toolLabel, lib/mcp/registry.ts). */
export const TOOL_LABELS: readonly string[] = [...chemTools.map((tool) => tool.name), UNKNOWN_TOOL];

/** How a call ended: it ran (success or a tool error) or the limiter refused it. */
export type CallOutcome = 'success' | 'failure' | 'rate_limited';
