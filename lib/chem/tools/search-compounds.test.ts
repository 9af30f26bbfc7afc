import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { allCompounds } from '../compounds.ts';
import { ToolError } from '../tool.ts';
import { searchCompoundsTool } from './search-compounds.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(searchCompoundsTool.outputSchema);
const validateInput = ajv.compile(searchCompoundsTool.inputSchema);

async function search(query: string, limit?: number) {
  const result = await searchCompoundsTool.run({ query, ...(limit === undefined ? {} : { limit }) });
  assert.ok(validateOutput(result), `${query}: ${ajv.errorsText(validateOutput.errors)}`);
  return result;
}
const summary = (r: Awaited<ReturnType<typeof search>>) => r.results.map((h) => `${h.name}: ${h.match.reason}`);

test('input schema is FastMCP style, limit 1–50', () => {
  const schema = argumentsSchema(searchCompoundsTool);
  assert.equal(schema.title, 'service_search_compoundsArguments');
  assert.equal(schema.properties.query.title, 'Query');
  assert.equal(schema.properties.limit.title, 'Limit');
  assert.deepEqual(schema.required, ['query']);
  assert.ok(validateInput({ query: 'ethanol', limit: 50 }));
  assert.equal(validateInput({ query: 'ethanol', limit: 0 }), false);
  assert.equal(validateInput({ query: 'ethanol', limit: 51 }), false);
  assert.equal(validateInput({ query: 'ethanol', limit: 2.5 }), false);
  assert.equal(validateInput({ query: '' }), false);
});

test('its example, butane with limit 3: n-butane first, three results', async () => {
  const r = await searchCompoundsTool.run(searchCompoundsTool.example);
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.equal(r.results[0].cas, '106-97-8');
  assert.equal(r.results.length, 3);
});

test('an exact name comes first, then names that start with or contain the query', async () => {
  const r = await search('methanol');
  assert.deepEqual(r.results[0], {
    rank: 1,
    name: 'methanol',
    cas: '67-56-1',
    formula: 'CH4O',
    smiles: r.results[0].smiles,
    ...(r.results[0].inchikey ? { inchikey: r.results[0].inchikey } : {}),
    match: { reason: 'name', matched: 'methanol' },
  });
  const butane = await search('butane');
  assert.equal(summary(butane)[0], 'n-butane: synonym');
  const reasons = butane.results.map((h) => h.match.reason);
  assert.deepEqual(
    reasons,
    [...reasons].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)),
    'ranked by reason',
  );
  assert.ok(butane.results.some((h) => h.name === 'isobutane' && h.match.reason === 'substring'));
});
const ORDER = ['name', 'synonym', 'cas', 'inchikey', 'formula', 'smiles', 'prefix', 'substring', 'similar_spelling'];

test('CAS, InChIKey and Chinese names are exact matches', async () => {
  assert.deepEqual(summary(await search('64-17-5'))[0], 'ethanol: cas');
  assert.deepEqual(summary(await search('LFQSCWFLJHTTHZ-UHFFFAOYSA-N'))[0], 'ethanol: inchikey');
  assert.deepEqual(summary(await search('乙醇'))[0], 'ethanol: synonym');
});

test('a formula lists every compound that has it', async () => {
  const r = await search('C4H10');
  assert.deepEqual(summary(r).slice(0, 2).sort(), ['isobutane: formula', 'n-butane: formula']);
});

test('SMILES match by structure: OCC is ethanol, C1=CC=CC=C1 benzene', async () => {
  assert.deepEqual(summary(await search('OCC'))[0], 'ethanol: smiles');
  assert.deepEqual(summary(await search('C1=CC=CC=C1'))[0], 'benzene: smiles');
  assert.deepEqual(summary(await search('c1ccccc1'))[0], 'benzene: smiles');
});

test('similar spelling, with the edit distance', async () => {
  const r = await search('etanol');
  assert.deepEqual(r.results[0].match, { reason: 'similar_spelling', matched: 'ethanol', distance: 1 });
  assert.deepEqual(r.results.map((h) => h.name).slice(0, 2), ['ethanol', 'methanol']);
  assert.equal((await search('tolune')).results[0].name, 'toluene');
});

test('limit cuts the list and the message says how many there were', async () => {
  const r = await search('chloro', 3);
  assert.equal(r.results.length, 3);
  assert.ok(r.total_matches > 3);
  assert.match(r.message ?? '', new RegExp(`Showing 3 of ${r.total_matches} matches`));
  assert.deepEqual(
    r.results.map((h) => h.rank),
    [1, 2, 3],
  );
  assert.equal((await search('chloro')).results.length, Math.min(10, r.total_matches));
});

test('no match is an empty result with a message, not an error', async () => {
  const r = await search('unobtainium');
  assert.deepEqual(r.results, []);
  assert.equal(r.total_matches, 0);
  assert.match(r.message ?? '', /No compound matches "unobtainium"/);
});

test('a mixture name finds no compound, and the message says it is a mixture and what to use', async () => {
  const r = await search('natural gas');
  assert.deepEqual(r.results, []);
  assert.match(
    r.message ?? '',
    /"natural gas" is a mixture, not one compound: Gulf Coast Gas is methane .*service_mixture_properties/,
  );
  assert.match((await search('air')).message ?? '', /As a pseudo-pure fluid, air also answers in service_eos_state/);
});

test('each compound appears once, under its best reason', async () => {
  const r = await search('ethane', 50);
  const names = r.results.map((h) => h.name);
  assert.deepEqual(names, [...new Set(names)]);
  assert.equal(summary(r)[0], 'ethane: name');
});

test('every compound is found first by its own name', async () => {
  for (const c of allCompounds()) {
    const r = await searchCompoundsTool.run({ query: c.name, limit: 1 });
    assert.equal(r.results[0]?.name, c.name, c.name);
  }
});

test('a blank query is invalid', async () => {
  await assert.rejects(
    searchCompoundsTool.run({ query: '   ' }),
    (e: unknown) => e instanceof ToolError && e.code === 'invalid_arguments',
  );
});

test('substrings: three Latin letters or two Chinese characters at least', async () => {
  assert.ok(!(await search('CO')).results.some((h) => h.match.reason === 'substring'));
  assert.deepEqual(summary(await search('CO')).slice(0, 2), ['carbon monoxide: formula', 'methanol: smiles']);
  assert.ok((await search('甲烷')).results.some((h) => h.name === 'chloromethane' && h.match.reason === 'substring'));
});
