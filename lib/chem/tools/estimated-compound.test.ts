/**
 * service_query_compound for compounds outside the measured catalogue, through the tool's run().
 * The expected identifiers are PubChem's, as the shipped name table's file gives them
 * (data/third-party/pubchem-names/chemical identifiers pubchem small.tsv).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { findCompound } from '../lookup.ts';
import { ToolError } from '../tool.ts';
import { queryCompoundTool } from './query-compound.ts';

const validate = new Ajv({ strict: true, allErrors: true }).compile(queryCompoundTool.outputSchema);

const inCatalogue = (name: string) => {
  try {
    findCompound(name);
    return true;
  } catch {
    return false;
  }
};

test('caffeine, aspirin, ibuprofen and glucose answer with identifiers, exact M and labelled estimates', async () => {
  const expected = {
    caffeine: { cas: '58-08-2', formula: 'C8H10N4O2', cid: 2519 },
    aspirin: { cas: '50-78-2', formula: 'C9H8O4', cid: 2244 },
    ibuprofen: { cas: '15687-27-1', formula: 'C13H18O2', cid: 3672 },
    glucose: { cas: '50-99-7', formula: 'C6H12O6', cid: 107526 },
  };
  for (const [name, id] of Object.entries(expected)) {
    assert.equal(inCatalogue(name), false, `${name} is in the catalogue now: this test no longer tests the table`);
    const result = await queryCompoundTool.run({ compound_name: name });
    assert.ok(validate(result), `${name}: ${JSON.stringify(validate.errors)}`);
    assert.equal(result.cas, id.cas);
    assert.equal(result.formula, id.formula);
    assert.equal(result.pubchem_cid, id.cid);
    assert.match(result.notes?.[0] ?? '', /Not in the measured catalogue/);
    // Molecular weight is exact arithmetic on the formula (IUPAC 2021 weights), not an estimate.
    assert.equal(result.properties.molecular_weight?.estimated, undefined);
    for (const [key, value] of Object.entries(result.properties)) {
      if (key === 'molecular_weight') continue;
      assert.equal((value as { estimated?: boolean }).estimated, true, `${name} ${key}`);
      assert.equal(value?.method, 'Joback–Reid group contribution', `${name} ${key}`);
      assert.match(String(value?.note), /Average absolute error: \d/, `${name} ${key}`);
    }
  }
});

test("caffeine's estimates are Joback's arithmetic on its groups", async () => {
  const caffeine = await queryCompoundTool.run({ compound_name: 'caffeine' });
  // M(C8H10N4O2) with IUPAC 2021 weights: 8·12.011 + 10·1.008 + 4·14.007 + 2·15.999 = 194.194 g/mol.
  assert.equal(caffeine.properties.molecular_weight?.value, 194.194);
  // The estimate is service_estimate_joback's for the table's SMILES, not a second computation.
  const { estimateJoback } = await import('./estimate-joback.ts');
  const direct = await estimateJoback({ smiles: caffeine.smiles });
  assert.equal(caffeine.properties.normal_boiling_point?.value, direct.estimates.normal_boiling_point?.value);
  assert.equal(caffeine.properties.critical_temperature?.note, direct.estimates.critical_temperature?.note);
  assert.equal(caffeine.properties.critical_pressure?.unit, 'bar');
  assert.ok(caffeine.synonyms.length <= 10);
});

test('a CAS number, an InChIKey and a formula one table compound has find it too', async () => {
  assert.equal((await queryCompoundTool.run({ compound_name: '15687-27-1' })).name, 'ibuprofen');
  const byKey = await queryCompoundTool.run({ compound_name: 'RYYVLZVUVIJVGH-UHFFFAOYSA-N' });
  assert.equal(byKey.name, 'caffeine');
  assert.equal(byKey.match.by, 'inchikey');
  const bySynonym = await queryCompoundTool.run({ compound_name: 'Paracetamol' });
  assert.equal(bySynonym.cas, '103-90-2');
  assert.equal(bySynonym.match.by, 'synonym');
});

test('urea answers too, from the catalogue if it is there, else estimated', async () => {
  const urea = await queryCompoundTool.run({ compound_name: 'urea' });
  assert.equal(urea.cas, '57-13-6');
  assert.ok(validate(urea));
});

test('a formula isomers share in the table is refused with the candidates', async () => {
  await assert.rejects(
    async () => queryCompoundTool.run({ compound_name: 'C6H12O6' }),
    (e: unknown) => e instanceof ToolError && e.code === 'ambiguous_compound' && /glucose/.test(e.message),
  );
});

test('an unknown name is still compound_not_found, suggesting table names', async () => {
  await assert.rejects(
    async () => queryCompoundTool.run({ compound_name: 'ibuprofem' }),
    (e: unknown) => e instanceof ToolError && e.code === 'compound_not_found' && /ibuprofen/.test(e.message),
  );
});

test('a name only the table knows, for a catalogue compound, answers with the measured data', async () => {
  // "etanol" is a synonym of ethanol (CAS 64-17-5) in the table, not in the catalogue.
  assert.throws(() => findCompound('etanol'));
  const result = await queryCompoundTool.run({ compound_name: 'etanol' });
  assert.equal(result.name, 'ethanol');
  assert.equal(result.match.by, 'synonym');
  assert.equal(result.pubchem_cid, undefined);
  assert.equal(result.properties.critical_temperature?.estimated, undefined);
});
