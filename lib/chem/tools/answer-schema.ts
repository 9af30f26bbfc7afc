/**
 * The shapes every answer repeats — a quantity {value, unit, …}, a temperature range, the sources table —
 * defined once per output schema under `$defs` and referred to by `$ref`, so tools/list stays small
 * (an agent loads it into every session). Output schemas describe the answer's shape; what the values
 * mean is in the tool's description and docs/tools.md.
 */
import type { JsonSchema } from '../tool.ts';

const DEFS = {
  quantity: {
    type: 'object',
    properties: { value: { type: 'number' }, unit: { type: 'string' } },
    required: ['value', 'unit'],
  },
  range: { type: 'object', properties: { min: { type: 'number' }, max: { type: 'number' }, unit: { type: 'string' } } },
} as const;

type DefName = keyof typeof DEFS;

/**
 * A quantity: {value, unit} plus method, source (an id in `sources`), temperature, valid_range, note,
 * warnings and estimated where they apply. Only value and unit are pinned: the rest reads for itself in
 * an answer, and spelling each out in every tool's schema would cost each agent session kilobytes.
 */
export const QUANTITY: JsonSchema = { $ref: '#/$defs/quantity' };
export const RANGE: JsonSchema = { $ref: '#/$defs/range' };

export const STRING: JsonSchema = { type: 'string' };
export const NUMBER: JsonSchema = { type: 'number' };
export const STRINGS: JsonSchema = { type: 'array', items: STRING };
/** The warnings every answer carries: empty when none apply. */
export const WARNINGS: JsonSchema = { type: 'array', items: STRING };

/** The citations an answer's `source` fields refer to by id (lib/mcp/compact-answer.ts writes it). */
const SOURCES: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };

/**
 * A nested object of an answer: its fields and their types. Only the answer's top level says which fields
 * are always there (answerSchema); below it, a required list would restate every field name in every
 * agent session, and `additionalProperties: false` would tell an agent nothing it can act on.
 */
export function objectOf(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties };
}

/**
 * A tool's output schema: its top-level object plus the `sources` table, with the `$defs` it refers to
 * and the tool's own
 * `defs` for shapes it repeats (refer to them as {$ref: '#/$defs/<name>'}).
 */
export function answerSchema(
  properties: Record<string, JsonSchema>,
  optional: string[] = [],
  defs: Record<string, JsonSchema> = {},
): JsonSchema {
  const body = {
    type: 'object',
    properties: { ...properties, sources: SOURCES },
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
  };
  const text = JSON.stringify([properties, defs]);
  const used = (Object.keys(DEFS) as DefName[]).filter((name) => text.includes(`#/$defs/${name}"`));
  const all = { ...Object.fromEntries(used.map((name) => [name, DEFS[name]])), ...defs };
  return Object.keys(all).length ? { ...body, $defs: all } : body;
}
