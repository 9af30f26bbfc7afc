import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { Ajv } from 'ajv';
import { allCompounds } from '../chem/compounds.ts';
import { findCompound } from '../chem/lookup.ts';
import { registeredCompounds, setRegisteredCompounds } from '../chem/registered-compounds.ts';
import { queryCompoundTool } from '../chem/tools/query-compound.ts';
import { CompoundIdentifiers, checkCompound, describeClash, registerCompounds } from './registration.ts';

afterEach(() => setRegisteredCompounds([]));

/** A made-up compound in its stored JSON form (values invented; a labelled SMILES and CAS numbers no real data will take). */
function stored(overrides: Record<string, unknown> = {}) {
  return {
    name: 'testolane',
    cas: '9999999-99-5',
    formula: 'C7H16O',
    smiles: '[13CH3]CCCCCCO',
    synonyms: ['test alcohol', '测试醇'],
    properties: {
      molecular_weight: { value: 116.204, unit: 'g/mol', source: 'IUPAC 2021 atomic weights' },
      critical_temperature: { value: 601.5, unit: 'K', source: 'invented for this test' },
      liquid_density: {
        value: 820,
        unit: 'kg/m3',
        source: 'invented for this test',
        temperature: { value: 298.15, unit: 'K' },
      },
    },
    ...overrides,
  };
}

test('checkCompound accepts the stored form and freezes it', () => {
  const compound = checkCompound(stored());
  assert.equal(compound.name, 'testolane');
  assert.deepEqual(Object.keys(compound.properties), ['molecular_weight', 'critical_temperature', 'liquid_density']);
  assert.ok(Object.isFrozen(compound.properties.critical_temperature), 'values are frozen');
});

test('checkCompound refuses what the tools could not serve, naming the defect', () => {
  const refuses = (overrides: Record<string, unknown>, message: RegExp) =>
    assert.throws(() => checkCompound(stored(overrides)), message);
  refuses({ cas: '1234-56-7' }, /CAS number 1234-56-7 is not valid/);
  refuses({ formula: 'C2H5OH' }, /not a formula in Hill order/);
  refuses({ inchikey: 'not-a-key' }, /standard InChIKey/);
  refuses(
    { properties: { critical_temperature: { value: 1, unit: 'K', source: 's' } } },
    /molecular_weight is missing/,
  );
  refuses(
    { properties: { ...stored().properties, boiling_point: { value: 1, unit: 'K', source: 's' } } },
    /unknown property "boiling_point"/,
  );
  refuses(
    { properties: { ...stored().properties, critical_pressure: { value: 4e6, unit: 'Pa', source: 's' } } },
    /critical_pressure: unit must be "bar"/,
  );
  refuses(
    { properties: { ...stored().properties, critical_pressure: { value: 40, unit: 'bar', source: '' } } },
    /source must be a non-empty citation/,
  );
  refuses(
    { properties: { ...stored().properties, liquid_density: { value: 820, unit: 'kg/m3', source: 's' } } },
    /needs "temperature"/,
  );
  refuses(
    {
      correlations: {
        vapor_pressure: [
          { equation: 'dippr101', coefficients: {}, valid_range: { min: 1, max: 2, unit: 'K' }, source: 's' },
        ],
      },
    },
    /equation must be/,
  );
});

test('CompoundIdentifiers reports each identifier another compound holds, across kinds and normalised', () => {
  const taken = new CompoundIdentifiers<string>();
  taken.add(checkCompound(stored()), 'first');
  const other = checkCompound(
    stored({ name: 'Test-Alcohol', cas: '9999998-99-2', smiles: '[13CH3]CCCCCCO', synonyms: ['9999999-99-5'] }),
  );
  const clashes = taken.clashes(other).map((c) => describeClash(c, (owner) => owner));
  assert.deepEqual(clashes, [
    'name "Test-Alcohol" is the synonym "test alcohol" of first',
    'synonym "9999999-99-5" is the cas of first',
    'smiles "[13CH3]CCCCCCO" is the smiles of first',
  ]);
  taken.remove('first');
  assert.deepEqual(taken.clashes(other), []);
});

test('registered compounds are found by name, synonym and CAS, and served by service_query_compound', async () => {
  const compound = checkCompound(stored());
  const { registered, refused } = registerCompounds([compound]);
  assert.deepEqual(refused, []);
  assert.deepEqual(registered, [compound]);
  for (const query of ['testolane', 'TEST ALCOHOL', '测试醇', '9999999-99-5'])
    assert.equal(findCompound(query).compound, compound, query);

  const result = await queryCompoundTool.run({ compound_name: 'Testolane' });
  const validate = new Ajv({ strict: false }).compile(queryCompoundTool.outputSchema);
  assert.ok(validate(result), JSON.stringify(validate.errors));
  assert.equal(result.properties.critical_temperature?.source, 'invented for this test');

  registerCompounds([]);
  assert.throws(() => findCompound('testolane'), /No compound matches/);
});

test('a compound that takes a built-in identifier is refused with the reason; the rest are registered', () => {
  const builtin = allCompounds()[0];
  const squatter = checkCompound(
    stored({ name: 'squatter', cas: '9999998-99-2', smiles: 'OCCCCCC[13CH3]', synonyms: [builtin.name] }),
  );
  const good = checkCompound(stored());
  const { registered, refused } = registerCompounds([squatter, good]);
  assert.deepEqual(registered, [good]);
  assert.equal(refused.length, 1);
  assert.equal(refused[0].compound, squatter);
  assert.equal(refused[0].reason, `synonym "${builtin.name}" is the name of built-in ${builtin.name}`);
  assert.equal(findCompound(builtin.name).compound, builtin);
  assert.deepEqual(registeredCompounds(), [good]);
});

test('registerCompounds: a compound recorded as overriding a built-in is served in its place; unmarked, it is refused', async () => {
  const ethanol = allCompounds().find((c) => c.cas === '64-17-5')!;
  const mine = checkCompound(
    stored({
      name: 'ethanol',
      cas: '64-17-5',
      formula: 'C2H6O',
      smiles: 'CCO',
      synonyms: [],
      properties: {
        molecular_weight: { value: 46.069, unit: 'g/mol', source: 'IUPAC 2021 atomic weights' },
        critical_temperature: { value: 520.5, unit: 'K', source: 'My lab 2026' },
      },
    }),
  );

  const unmarked = registerCompounds([mine]);
  assert.deepEqual(unmarked.registered, []);
  assert.match(unmarked.refused[0].reason, /name "ethanol" is the name of built-in ethanol/);
  assert.equal(findCompound('ethanol').compound, ethanol);

  const marked = registerCompounds([mine], { overrides: new Map([[mine, [{ name: 'ethanol', cas: '64-17-5' }]]]) });
  assert.deepEqual(marked.registered, [mine]);
  assert.deepEqual(marked.refused, []);
  assert.deepEqual(marked.overridden, [{ builtin: ethanol, by: mine }]);
  for (const query of ['ethanol', '64-17-5', 'EtOH', '乙醇', 'CCO'])
    assert.equal(findCompound(query).compound, mine, query);
  const result = await queryCompoundTool.run({ compound_name: 'ethanol' });
  assert.deepEqual(result.properties.critical_temperature, { value: 520.5, unit: 'K', source: 'My lab 2026' });

  // An override recorded for another built-in does not license this one.
  const wrong = registerCompounds([mine], { overrides: new Map([[mine, [{ name: 'methanol', cas: '67-56-1' }]]]) });
  assert.deepEqual(wrong.registered, []);
  assert.equal(findCompound('ethanol').compound, ethanol);
});
