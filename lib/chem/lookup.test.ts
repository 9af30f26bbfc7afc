import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allCompounds, type Compound } from './compounds.ts';
import { buildCompoundIndex, findCompound, MAX_QUERY_LENGTH, normalizeKey, suggestCompounds } from './lookup.ts';
import { ToolError } from './tool.ts';

const found = (query: string) => {
  const { compound, by } = findCompound(query);
  return `${compound.name} by ${by}`;
};

function rejects(query: string, code: string, message?: RegExp) {
  assert.throws(
    () => findCompound(query),
    (e: unknown) => e instanceof ToolError && e.code === code && (!message || message.test(e.message)),
    `${JSON.stringify(query)} should fail with ${code}`,
  );
}

test('finds every compound by its name, each synonym, CAS number and InChIKey', () => {
  for (const c of allCompounds()) {
    assert.equal(findCompound(c.name).compound, c, c.name);
    for (const s of c.synonyms) assert.equal(findCompound(s).compound, c, s);
    assert.equal(findCompound(c.cas).compound, c, c.cas);
    if (c.inchikey) assert.equal(findCompound(c.inchikey).compound, c, c.inchikey);
  }
});

test('ignores case, spacing, hyphens, primes and full-width forms', () => {
  for (const q of [
    'n-Butane',
    'N-BUTANE',
    'n butane',
    'nbutane',
    '  n‐butane ',
    'butane',
    "n-butane'",
    'ｎ－ｂｕｔａｎｅ',
  ]) {
    assert.equal(found(q), q.trim() === 'butane' ? 'n-butane by synonym' : 'n-butane by name', q);
  }
  assert.equal(found('Ethyl Alcohol'), 'ethanol by synonym');
  assert.equal(found('ETOH'), 'ethanol by synonym');
  assert.equal(found('R 600a'), 'isobutane by synonym');
  assert.equal(found('Carbon-Dioxide'), 'carbon dioxide by name');
});

test('finds Simplified Chinese names', () => {
  assert.equal(found('乙醇'), 'ethanol by synonym');
  assert.equal(found('甲烷'), 'methane by synonym');
  assert.equal(found('二氧化碳'), 'carbon dioxide by synonym');
  assert.equal(found('水'), 'water by synonym');
  assert.equal(found(' 乙 醇 '), 'ethanol by synonym');
});

test('finds CAS numbers and InChIKeys however they are punctuated', () => {
  assert.equal(found('64-17-5'), 'ethanol by cas');
  assert.equal(found('64 17 5'), 'ethanol by cas');
  assert.equal(found('lfqscwfljhtthz-uhfffaoysa-n'), 'ethanol by inchikey');
  assert.equal(found('InChIKey=LFQSCWFLJHTTHZ-UHFFFAOYSA-N'), 'ethanol by inchikey');
});

test('finds a formula only one compound has, written in Hill order or not', () => {
  assert.equal(found('CO2'), 'carbon dioxide by formula');
  assert.equal(found('CO'), 'carbon monoxide by formula');
  assert.equal(found('NH3'), 'ammonia by formula');
  assert.equal(found('H2O'), 'water by formula');
  assert.equal(found('C6H5CH3'), 'toluene by formula');
  assert.equal(found('HOCH2CH2OH'), 'ethylene glycol by formula');
  assert.equal(found('CH2(OH)CH2OH'), 'ethylene glycol by formula');
});

test('a formula that isomers share is ambiguous, and the error lists them', () => {
  rejects('C4H10', 'ambiguous_compound', /n-butane, isobutane/);
  // A condensed formula is still only a formula: C2H5OH is C2H6O, which dimethyl ether shares.
  rejects('C2H5OH', 'ambiguous_compound', /ethanol, dimethyl ether|dimethyl ether, ethanol/);
});

test('finds stored SMILES, case-sensitively', () => {
  assert.equal(found('CCO'), 'ethanol by smiles');
  assert.equal(found('c1ccccc1'), 'benzene by smiles');
  assert.equal(found('C1CCCCC1'), 'cyclohexane by smiles');
  assert.equal(found('O=C=O'), 'carbon dioxide by smiles');
});

test('a miss names the closest compounds', () => {
  rejects('etanol', 'compound_not_found', /Did you mean: ethanol/);
  rejects('tolune', 'compound_not_found', /Did you mean: toluene/);
  rejects('乙醇醇', 'compound_not_found', /Did you mean: .*ethanol/);
  rejects('二氧化碳碳', 'compound_not_found', /Did you mean: carbon dioxide/);
  assert.equal(suggestCompounds('etanol')[0], 'ethanol');
  try {
    findCompound('bnezene');
    assert.fail('bnezene should not be found');
  } catch (e) {
    assert.ok(e instanceof ToolError);
    assert.deepEqual(e.details, { query: 'bnezene', suggestions: ['benzene'] });
  }
});

test('a miss with nothing close says what to try next: the search tool, a SMILES or a CAS number', () => {
  rejects(
    'unobtainium',
    'compound_not_found',
    /^No compound matches "unobtainium"\. Try service_search_compounds with query "unobtainium", or give a SMILES string or CAS number as compound_name\.$/,
  );
  // With suggestions, only those.
  rejects('etanol', 'compound_not_found', /^No compound matches "etanol"\. Did you mean: [^.]*\?$/);
});

test('"steam" and "water vapour" (either spelling) are water', () => {
  for (const q of ['steam', 'Steam', 'water vapour', 'water vapor', 'Water-Vapor'])
    assert.equal(found(q), 'water by synonym', q);
});

test('a mixture name is is_mixture, with the composition on record ready for service_mixture_properties', () => {
  rejects(
    'natural gas',
    'is_mixture',
    /Gulf Coast Gas is methane 0\.96522, .*service_mixture_properties.*divide each by the sum/,
  );
  rejects(
    'R-410A',
    'is_mixture',
    /difluoromethane 0\.69761, pentafluoroethane 0\.30239 \(mole fractions; REFPROP manual/,
  );
  try {
    findCompound('R410A');
    assert.fail('R410A is a mixture');
  } catch (e) {
    assert.ok(e instanceof ToolError);
    assert.deepEqual(e.details?.components, [
      { compound_name: 'difluoromethane', mole_fraction: 0.69761 },
      { compound_name: 'pentafluoroethane', mole_fraction: 0.30239 },
    ]);
  }
});

test('air, by name, synonym or CAS number, is a mixture here, and the message names the tools that answer for it', () => {
  for (const q of ['air', 'Air', 'atmosphere', '132259-10-0']) {
    rejects(
      q,
      'is_mixture',
      /nitrogen 0\.7812, argon 0\.0092, oxygen 0\.2096 .*service_eos_state, service_ideal_gas_thermo and service_query_compound/,
    );
  }
});

test('fuels of variable composition are is_mixture, saying to pass their components', () => {
  for (const q of ['gasoline', 'Petrol', 'diesel', 'kerosene', 'LPG']) {
    rejects(
      q,
      'is_mixture',
      /is a mixture of variable composition, not one compound: pass its components .* service_mixture_properties/,
    );
  }
});

test('empty, blank and overlong queries are invalid arguments', () => {
  rejects('', 'invalid_arguments');
  rejects('   \t', 'invalid_arguments');
  rejects('x'.repeat(MAX_QUERY_LENGTH + 1), 'invalid_arguments');
});

test('building the index refuses two compounds claiming one name', () => {
  const [a, b] = allCompounds();
  const clash: Compound = { ...b, synonyms: [...b.synonyms, a.name.toUpperCase()] };
  assert.throws(() => buildCompoundIndex([a, clash]), /collides with the name of/);
});

test('normalisation keeps what distinguishes names', () => {
  assert.equal(normalizeKey("1,1'-Biphenyl"), '1,1biphenyl');
  assert.notEqual(normalizeKey('1,2-dichloroethane'), normalizeKey('1,1-dichloroethane'));
});
