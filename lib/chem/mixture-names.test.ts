import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findMixture, mixtureError, parseMixtureFile, VARIABLE_MIXTURES } from './mixture-names.ts';

test('a row gives its components with mole fractions, its synonyms and its source', () => {
  const header = 'Primary Name\tSource\tN components\tCASRNs*N\tNames*N\tmass fracs*N\tmole fracs*N\tSynonyms';
  const row = [
    'Mix ',
    'ASHRAE 34',
    '2',
    '75-10-5',
    '354-33-6',
    'R32',
    'R125',
    '0.5',
    '0.5',
    '0.7',
    '0.3',
    'M-1',
    'Mix',
  ];
  const [mixture] = parseMixtureFile(`${header}\n${row.join('\t')}\n`);
  assert.equal(mixture.name, 'Mix');
  assert.deepEqual(mixture.synonyms, ['M-1']);
  assert.deepEqual(mixture.components, [
    { cas: '75-10-5', name: 'R32', moleFraction: 0.7 },
    { cas: '354-33-6', name: 'R125', moleFraction: 0.3 },
  ]);
  assert.match(mixture.source, /^ASHRAE 34, as tabulated in the chemicals library/);
  // A row whose fractions are not numbers is left out.
  assert.deepEqual(parseMixtureFile(`${header}\n${row.join('\t').replace('0.7', 'x')}\n`), []);
});

const skip = findMixture('air') ? false : 'the mixture table is not on hand';

test('a table mixture is is_mixture with its composition by catalogue name, and a hint when it does not sum to 1', {
  skip,
}, () => {
  const error = mixtureError('R-410A');
  assert.equal(error?.code, 'is_mixture');
  assert.deepEqual(error?.details?.components, [
    { compound_name: 'difluoromethane', mole_fraction: 0.69761 },
    { compound_name: 'pentafluoroethane', mole_fraction: 0.30239 },
  ]);
  assert.doesNotMatch(error!.message, /divide each/);
  // Gulf Coast Gas, listed as "natural gas", sums to 0.999998.
  assert.match(
    mixtureError('natural gas')!.message,
    /Gulf Coast Gas is methane 0\.96522.*They sum to 0\.999998: divide each by the sum\.$/,
  );
  assert.match(mixtureError('air', ' More.', 'Air')!.message, /\. More\.$/);
});

test('the few fuels of variable composition are is_mixture without a composition; compounds are not mixtures', () => {
  for (const name of VARIABLE_MIXTURES) {
    const error = mixtureError(name.toUpperCase());
    assert.equal(error?.code, 'is_mixture', name);
    assert.match(error!.message, /mixture of variable composition.*service_mixture_properties/);
  }
  for (const name of ['ethanol', 'water', 'unobtainium']) assert.equal(mixtureError(name), undefined, name);
});
