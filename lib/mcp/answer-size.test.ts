/**
 * What an agent pays: tools/list is loaded into every session and every answer into its context. The
 * catalogue stays under 30 KB; one ordinary call per tool (its documented example) answers in 1.5 KB or
 * less at the median; no ordinary call (those plus other calls agents make most) answers over 6 KB, writes a
 * citation twice or carries binary noise.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ANSWER_SIGNIFICANT_DIGITS } from './compact-answer.ts';
import { registry, TOOL_ANNOTATIONS, toolListing } from './registry.ts';
import { runTool } from './run-tool.ts';

const CATALOGUE_LIMIT = 30_000;
const MEDIAN_ANSWER_LIMIT = 1_500;
const ANSWER_LIMIT = 6_000;

const ONE_PER_TOOL: [string, unknown][] = [...registry.values()].map(({ tool }) => [tool.name, tool.example]);
const ORDINARY_CALLS: [string, unknown][] = [
  ...ONE_PER_TOOL,
  ['service_query_compound', { compound_name: 'ethanol' }],
  ['service_query_compound', { compound_name: 'propane' }],
  // A compound outside the catalogue, found through the PubChem-derived name table.
  ['service_query_compound', { compound_name: 'caffeine' }],
  ['service_vapor_pressure', { compound_name: 'ethanol', temperature: 25, temperature_unit: '°C' }],
  ['service_eos_state', { compound_name: 'carbon dioxide', temperature: 300, pressure: 60, pressure_unit: 'bar' }],
  [
    'service_eos_state',
    { compound_name: 'methane', temperature: 250, pressure: 5, pressure_unit: 'MPa', eos: 'peng_robinson' },
  ],
  ['service_liquid_density', { compound_name: 'water', temperature: 25, temperature_unit: '°C' }],
  // Air, a pseudo-pure fluid: its composition stands in for a formula.
  ['service_query_compound', { compound_name: 'air' }],
  ['service_eos_state', { compound_name: 'air', temperature: 300, pressure: 1, pressure_unit: 'bar' }],
  [
    'service_mixture_properties',
    { components: [{ compound_name: 'air', mole_fraction: 1 }], temperature: 300, pressure: 1e5 },
  ],
  ['service_ideal_gas_thermo', { compound_name: 'methane', temperature: 1000 }],
  ['service_estimate_joback', { smiles: 'CCO' }],
  ['service_molecule_descriptors', { smiles: 'c1ccccc1' }],
];

test(`tools/list is at most ${CATALOGUE_LIMIT} bytes, and every tool has a title and annotations`, () => {
  const size = Buffer.byteLength(JSON.stringify({ tools: toolListing }));
  assert.ok(size <= CATALOGUE_LIMIT, `tools/list is ${size} bytes`);
  for (const tool of toolListing) {
    assert.ok(tool.title, tool.name);
    assert.deepEqual(tool.annotations, TOOL_ANNOTATIONS, tool.name);
    assert.equal(tool.annotations.readOnlyHint, true);
    assert.equal(tool.annotations.idempotentHint, true);
    assert.equal(tool.annotations.openWorldHint, false);
  }
});

/** Every number in `value` with more significant digits than the cap, as paths. */
function noisyNumbers(value: unknown, path = ''): string[] {
  if (typeof value === 'number') {
    const digits = value.toExponential().split('e')[0].replace(/[-.]/g, '').length;
    return digits > ANSWER_SIGNIFICANT_DIGITS ? [`${path}=${value}`] : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => noisyNumbers(inner, `${path}.${key}`));
}

/** Every `source` (or `…_source`) field's value in `value`. */
function sourceFields(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    (key === 'source' || key.endsWith('_source')) && typeof inner === 'string' ? [inner] : sourceFields(inner),
  );
}

test(`ordinary answers: none over ${ANSWER_LIMIT} B, citations once, no noise; one per tool: median ≤ ${MEDIAN_ANSWER_LIMIT} B`, async () => {
  const sizes: number[] = [];
  for (const [name, args] of ORDINARY_CALLS) {
    const { result } = await runTool(name, args);
    const call = `${name} ${JSON.stringify(args)}`;
    assert.equal(result.isError, false, `${call}: ${JSON.stringify(result.content)}`);
    const text = (result.content[0] as { text: string }).text;
    const size = Buffer.byteLength(text);
    sizes.push(size);
    assert.ok(size <= ANSWER_LIMIT, `${call} answers ${size} bytes`);
    assert.equal(text, JSON.stringify(result.structuredContent), `${call}: text and structuredContent differ`);
    const answer = result.structuredContent as { sources?: Record<string, string> };
    const cited = sourceFields({ ...answer, sources: undefined });
    for (const id of cited)
      assert.ok(answer.sources && typeof id === 'string' && id in answer.sources, `${call}: ${id}`);
    const citations = Object.values(answer.sources ?? {});
    assert.equal(new Set(citations).size, citations.length, `${call}: a citation is written twice`);
    assert.deepEqual(noisyNumbers(answer), [], call);
  }
  const sorted = sizes.slice(0, ONE_PER_TOOL.length).sort((a, b) => a - b);
  const median = (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;
  assert.ok(median <= MEDIAN_ANSWER_LIMIT, `median answer ${median} bytes (sizes ${sizes.join(', ')})`);
});
