/**
 * service_estimate_joback, service_molecule_descriptors and service_formula_info take a compound by
 * name instead of a SMILES or formula: catalogue names, and names only the PubChem name table knows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { findCompound } from '../lookup.ts';
import { ToolError } from '../tool.ts';
import { estimateJobackTool } from './estimate-joback.ts';
import { formulaInfoTool } from './formula-info.ts';
import { moleculeDescriptorsTool } from './molecule-descriptors.ts';

const ajv = new Ajv({ strict: true, allErrors: true });

test('a catalogue name gives the same answer as its SMILES or formula, and says which compound it was', async () => {
  const acetone = findCompound('acetone').compound;
  const byName = await estimateJobackTool.run({ compound_name: 'acetone' });
  const bySmiles = await estimateJobackTool.run({ smiles: acetone.smiles });
  assert.deepEqual(byName.estimates, bySmiles.estimates);
  assert.deepEqual(byName.compound, { name: 'acetone', cas: acetone.cas, matched_by: 'name', origin: 'catalogue' });
  assert.ok(ajv.validate(estimateJobackTool.outputSchema, byName), ajv.errorsText());

  const descriptors = await moleculeDescriptorsTool.run({ compound_name: '67-64-1' });
  assert.equal(descriptors.compound?.matched_by, 'cas');
  assert.equal(
    descriptors.canonical_smiles,
    (await moleculeDescriptorsTool.run({ smiles: acetone.smiles })).canonical_smiles,
  );
  assert.ok(ajv.validate(moleculeDescriptorsTool.outputSchema, descriptors), ajv.errorsText());

  const formula = formulaInfoTool.run({ compound_name: 'acetone' });
  assert.equal(formula.formula, acetone.formula);
  assert.ok(ajv.validate(formulaInfoTool.outputSchema, formula), ajv.errorsText());
});

test('exactly one of the structure and compound_name', async () => {
  const refused = (e: unknown) =>
    e instanceof ToolError && e.code === 'invalid_arguments' && /exactly one/.test(e.message);
  await assert.rejects(async () => estimateJobackTool.run({ smiles: 'CCO', compound_name: 'ethanol' }), refused);
  await assert.rejects(async () => moleculeDescriptorsTool.run({ include_svg: true }), refused);
  assert.throws(() => formulaInfoTool.run({}), refused);
});

test('an unknown name is compound_not_found with suggestions', async () => {
  await assert.rejects(
    async () => moleculeDescriptorsTool.run({ compound_name: 'acetonne' }),
    (e: unknown) => e instanceof ToolError && e.code === 'compound_not_found' && /acetone/.test(e.message),
  );
});

test('a name only the PubChem table knows: caffeine', async () => {
  const d = await moleculeDescriptorsTool.run({ compound_name: 'caffeine' });
  assert.deepEqual(d.compound, {
    name: 'caffeine',
    cas: '58-08-2',
    pubchem_cid: 2519,
    matched_by: 'name',
    origin: 'name_table',
  });
  // PubChem's InChIKey for CID 2519, as the table gives it, is what RDKit computes from the table's SMILES.
  assert.equal(d.inchikey, 'RYYVLZVUVIJVGH-UHFFFAOYSA-N');
  const f = formulaInfoTool.run({ compound_name: 'ibuprofen' });
  assert.equal(f.formula, 'C13H18O2');
  const j = await estimateJobackTool.run({ compound_name: 'aspirin' });
  assert.ok(j.estimates.normal_boiling_point);
});
