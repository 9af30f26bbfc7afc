/**
 * SMILES lookup by structure (RDKit canonical SMILES). In its own file: node:test runs each file in its
 * own process, so the first test here sees RDKit not yet loaded.
 */
// test-isolation: process (it checks what happens before and when RDKit is first loaded in a process)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allCompounds, type Compound } from './compounds.ts';
import { buildCompoundIndex, findCompound, mayBeSmiles, prepareCompoundIndex } from './lookup.ts';
import { ToolError } from './tool.ts';

const found = (query: string) => {
  const { compound, by } = findCompound(query);
  return `${compound.name} by ${by}`;
};

test('before RDKit is loaded, a SMILES matches only as stored', () => {
  assert.equal(found('CCO'), 'ethanol by smiles');
  assert.throws(
    () => findCompound('OCC'),
    (e: unknown) => e instanceof ToolError && e.code === 'compound_not_found',
  );
});

test('after prepareCompoundIndex, any SMILES of a compound finds it', async () => {
  await prepareCompoundIndex();
  assert.equal(found('OCC'), 'ethanol by smiles');
  assert.equal(found('C(C)O'), 'ethanol by smiles');
  // Bracketed hydrogens also read as a formula, C2H6O: ethanol's alone, or shared with dimethyl ether.
  assert.equal(findCompound('[H]OC([H])([H])C([H])([H])[H]').compound.name, 'ethanol');
  assert.equal(found('c1ccccc1'), 'benzene by smiles');
  assert.equal(found('C1=CC=CC=C1'), 'benzene by smiles');
  assert.equal(found('C1CCCCC1'), 'cyclohexane by smiles');
  assert.equal(found('O=C(C)C'), 'acetone by smiles');
  assert.equal(found('C(Cl)(Cl)Cl'), 'chloroform by smiles');
});

test('names, formulas and stored SMILES keep their meaning', () => {
  assert.equal(found('ethanol'), 'ethanol by name');
  assert.equal(found('CO'), 'carbon monoxide by formula');
  assert.equal(found('NH3'), 'ammonia by formula');
  assert.equal(found('O=C=O'), 'carbon dioxide by smiles');
});

test('a SMILES of a structure not in the data is not found, and a misspelt name still gets suggestions', () => {
  assert.throws(
    () => findCompound('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC'),
    (e: unknown) => e instanceof ToolError && e.code === 'compound_not_found',
  );
  assert.throws(
    () => findCompound('C1CC'),
    (e: unknown) => e instanceof ToolError && e.code === 'compound_not_found',
  );
  assert.throws(
    () => findCompound('etanol'),
    (e: unknown) => e instanceof ToolError && /Did you mean: ethanol/.test(e.message),
  );
});

test('a SMILES that reads as a formula several compounds share still finds its structure', async () => {
  const [ethanol, ether] = ['ethanol', 'diethyl ether'].map((name) => allCompounds().find((c) => c.name === name)!);
  // A stand-in for dimethyl ether, so the test does not depend on which compounds the data holds.
  const isomer: Compound = {
    ...ether,
    name: 'ethanol isomer',
    cas: '0-00-0',
    formula: 'C2H6O',
    synonyms: [],
    smiles: 'COC',
  };
  delete (isomer as { inchikey?: string }).inchikey;
  const index = await prepareCompoundIndex(buildCompoundIndex([ethanol, isomer]));
  assert.equal(findCompound('[H]OC([H])([H])C([H])([H])[H]', index).compound, ethanol);
  assert.equal(findCompound('[CH3]O[CH3]', index).compound, isomer);
  assert.throws(
    () => findCompound('C2H5OH', index),
    (e: unknown) => e instanceof ToolError && e.code === 'ambiguous_compound',
  );
});

test('two compounds with one structure make a SMILES query ambiguous', async () => {
  const ethanol = allCompounds().find((c) => c.name === 'ethanol')!;
  const twin: Compound = { ...ethanol, name: 'ethanol twin', cas: '0-00-0', synonyms: [], smiles: 'OCC' };
  delete (twin as { inchikey?: string }).inchikey;
  const index = await prepareCompoundIndex(buildCompoundIndex([ethanol, twin]));
  assert.throws(
    () => findCompound('C(O)C', index),
    (e: unknown) =>
      e instanceof ToolError && e.code === 'ambiguous_compound' && /ethanol, ethanol twin/.test(e.message),
  );
});

test('only SMILES-like text is parsed', () => {
  assert.equal(mayBeSmiles('C1=CC=CC=C1'), true);
  assert.equal(mayBeSmiles('[Na+].[Cl-]'), true);
  assert.equal(mayBeSmiles('F/C=C\\F'), true);
  assert.equal(mayBeSmiles('ethyl alcohol'), false);
  assert.equal(mayBeSmiles('乙醇'), false);
});
