import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { MAX_SMILES_LENGTH } from '../rdkit.ts';
import { ToolError } from '../tool.ts';
import { moleculeDescriptorsTool } from './molecule-descriptors.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(moleculeDescriptorsTool.outputSchema);
const validateInput = ajv.compile(moleculeDescriptorsTool.inputSchema);
const run = moleculeDescriptorsTool.run;

function near(actual: number, expected: number, tolerance: number, what: string) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected} ± ${tolerance}`);
}

test('input schema is FastMCP style', () => {
  const schema = argumentsSchema(moleculeDescriptorsTool);
  assert.equal(schema.title, 'service_molecule_descriptorsArguments');
  assert.equal(schema.properties.smiles.title, 'Smiles');
  assert.equal(schema.properties.include_svg.title, 'Include Svg');
  assert.deepEqual(schema.required, []);
  assert.ok(validateInput({ smiles: 'CCO', include_svg: true }));
  assert.equal(validateInput({}), false);
  assert.equal(validateInput({ smiles: '' }), false);
  assert.equal(validateInput({ smiles: 'C'.repeat(MAX_SMILES_LENGTH + 1) }), false);
  assert.equal(validateInput({ smiles: 'CCO', svg: true }), false);
});

// Aspirin: exact mass 180.04226, TPSA 63.6. PubChem CID 2244 lists
// monoisotopic mass 180.04225873, TPSA 63.6 Å2, 1 donor, 4 acceptors, InChIKey BSYNRYMUTXBXSQ-UHFFFAOYSA-N.
test('aspirin, its example', async () => {
  const r = await run(moleculeDescriptorsTool.example);
  assert.equal(moleculeDescriptorsTool.example.smiles, 'CC(=O)Oc1ccccc1C(=O)O');
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  near(r.descriptors.exact_mass.value, 180.04226, 1e-5, 'exact mass');
  near(r.descriptors.tpsa.value, 63.6, 0.05, 'TPSA');
  near(r.descriptors.molecular_weight.value, 180.159, 0.001, 'MW'); // C9H8O4 with IUPAC 2021 weights
  assert.equal(r.formula, 'C9H8O4');
  assert.equal(r.inchikey, 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
  assert.equal(r.canonical_smiles, 'CC(=O)Oc1ccccc1C(=O)O');
  assert.equal(r.descriptors.h_bond_donors.value, 1);
  assert.equal(r.descriptors.h_bond_acceptors.value, 4);
  assert.equal(r.descriptors.heavy_atom_count.value, 13);
  assert.equal(r.descriptors.ring_count.value, 1);
  assert.equal(r.descriptors.aromatic_ring_count.value, 1);
  assert.match(r.descriptors.clogp.source, /Wildman.*Crippen.*1999/);
  assert.match(r.descriptors.clogp.method, /Wildman–Crippen/);
  assert.match(r.descriptors.molecular_weight.source, /IUPAC CIAAW/);
  assert.match(r.descriptors.tpsa.source, /Ertl.*2000/);
  assert.equal(r.lipinski_rule_of_five.violations, 0);
  assert.equal(r.lipinski_rule_of_five.passes, true);
  assert.equal(r.svg, undefined);
  assert.deepEqual(r.warnings, []);
});

test("values keep their tables' decimals: MW 3, exact mass 6, logP 4, TPSA 2; counts are integers", async () => {
  const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;
  const limits = { molecular_weight: 3, exact_mass: 6, clogp: 4, tpsa: 2 } as Record<string, number>;
  for (const smiles of ['CC(=O)Oc1ccccc1C(=O)O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'c1ccccc1', '[2H]O[2H]']) {
    const r = await run({ smiles });
    for (const [key, d] of Object.entries(r.descriptors)) {
      if (key in limits) assert.ok(decimals(d.value) <= limits[key], `${smiles} ${key}: ${d.value}`);
      else assert.ok(Number.isInteger(d.value), `${smiles} ${key}: ${d.value}`);
    }
  }
});

test('SVG only when asked', async () => {
  const r = await run({ smiles: 'c1ccccc1O', include_svg: true });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.match(r.svg ?? '', /<svg[\s\S]*<\/svg>/);
  assert.equal((await run({ smiles: 'c1ccccc1O', include_svg: false })).svg, undefined);
});

test('Lipinski flags: each rule, the count, and "at most one violation"', async () => {
  // n-Tetracontane: MW > 500 and logP > 5, no donors or acceptors: two violations.
  const r = await run({ smiles: 'C'.repeat(40) });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  const l = r.lipinski_rule_of_five;
  assert.deepEqual(
    [l.molecular_weight.pass, l.clogp.pass, l.h_bond_donors.pass, l.h_bond_acceptors.pass],
    [false, false, true, true],
  );
  assert.equal(l.violations, 2);
  assert.equal(l.passes, false);
  // Glucose: five OH (5 donors), six O atoms (6 acceptors), low MW: no violation.
  const glucose = await run({ smiles: 'OCC1OC(O)C(O)C(O)C1O' });
  assert.equal(glucose.descriptors.h_bond_donors.value, 5);
  assert.equal(glucose.descriptors.h_bond_acceptors.value, 6);
  assert.deepEqual(glucose.lipinski_rule_of_five.h_bond_donors, { limit: 5, pass: true });
  assert.equal(glucose.lipinski_rule_of_five.violations, 0);
});

test('ions and salts say what the values are for', async () => {
  const salt = await run({ smiles: '[Na+].[Cl-]' });
  assert.ok(validateOutput(salt), ajv.errorsText(validateOutput.errors));
  assert.equal(salt.formula, 'ClNa');
  assert.equal(salt.formal_charge, 0);
  near(salt.descriptors.molecular_weight.value, 58.44, 0.005, 'NaCl MW');
  assert.ok(salt.warnings.some((w) => /disconnected/.test(w)));
  const acetate = await run({ smiles: 'CC(=O)[O-]' });
  assert.equal(acetate.formula, 'C2H3O2');
  assert.equal(acetate.formal_charge, -1);
  assert.ok(acetate.warnings.some((w) => /charge -1/.test(w)));
});

test('isotope labels: RDKit masses, and a warning about the formula', async () => {
  const r = await run({ smiles: '[2H]O[2H]' });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  near(r.descriptors.molecular_weight.value, 20.03, 0.01, 'D2O MW');
  assert.match(r.descriptors.molecular_weight.method, /RDKit/);
  assert.ok(r.warnings.some((w) => /isotope/.test(w)));
});

test('an invalid SMILES is invalid_arguments naming what RDKit could not parse', async () => {
  await assert.rejects(
    run({ smiles: 'C1CC' }),
    (e: unknown) => e instanceof ToolError && e.code === 'invalid_arguments' && /unclosed ring/.test(e.message),
  );
  await assert.rejects(
    run({ smiles: 'benzene' }),
    (e: unknown) => e instanceof ToolError && e.code === 'invalid_arguments' && /benzene/.test(e.message),
  );
});
