/**
 * Answers as an agent pays for them (every byte is context): each citation is written once, in a
 * `sources` table at the end, and every `source` field refers to it by id ("S1"); no number carries more
 * than ANSWER_SIGNIFICANT_DIGITS digits, so binary noise (0.046200000000000005) never reaches a caller.
 * Tools round what they compute further, to what their method supports (lib/chem/precision.ts). One pass
 * here covers every tool, so no tool can repeat a citation or leak noise.
 */

/** Enough for any measured or exact value we serve (exact masses have 9); far below double noise (17). */
export const ANSWER_SIGNIFICANT_DIGITS = 10;

/** Fields holding a citation: `source` and the like (`form_source`). */
function isSourceField(key: string): boolean {
  return key === 'source' || key.endsWith('_source');
}

type SourceTable = Record<string, string>;

/**
 * The answer with citations replaced by ids and numbers capped, plus its `sources` table (omitted when the
 * answer cites nothing). Ids are numbered in order of first appearance, so the same call gives the same ids.
 */
export function compactAnswer(value: object): Record<string, unknown> {
  const ids = new Map<string, string>();
  const compacted = compact(value, ids) as Record<string, unknown>;
  if (ids.size === 0) return compacted;
  const sources: SourceTable = {};
  for (const [text, id] of ids) sources[id] = text;
  return { ...compacted, sources };
}

function compact(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : capDigits(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => compact(item, ids));
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const inner = (value as Record<string, unknown>)[key];
    out[key] = typeof inner === 'string' && isSourceField(key) ? sourceId(inner, ids) : compact(inner, ids);
  }
  return out;
}

function sourceId(text: string, ids: Map<string, string>): string {
  let id = ids.get(text);
  if (!id) {
    id = `S${ids.size + 1}`;
    ids.set(text, id);
  }
  return id;
}

function capDigits(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(ANSWER_SIGNIFICANT_DIGITS)) : x;
}
