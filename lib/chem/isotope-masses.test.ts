import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ATOMIC_WEIGHT_UNCERTAINTIES, ATOMIC_WEIGHTS, ELEMENTS_WITHOUT_STANDARD_WEIGHT } from './atomic-weights.ts';
import { MOST_ABUNDANT_ISOTOPES } from './isotope-masses.ts';
import { descriptors, loadRDKit, withMolecule } from './rdkit.ts';

test('every element with an atomic weight has an uncertainty and a most abundant isotope', () => {
  const symbols = Object.keys(ATOMIC_WEIGHTS);
  assert.equal(symbols.length, 84);
  assert.deepEqual(Object.keys(ATOMIC_WEIGHT_UNCERTAINTIES), symbols);
  assert.deepEqual(Object.keys(MOST_ABUNDANT_ISOTOPES), symbols);
  for (const symbol of symbols) {
    assert.ok(!ELEMENTS_WITHOUT_STANDARD_WEIGHT.includes(symbol), symbol);
    const { massNumber, mass } = MOST_ABUNDANT_ISOTOPES[symbol];
    // An atomic mass is within 0.1 Da of its mass number (binding energy), and a standard atomic
    // weight within a few Da of its main isotope's mass.
    assert.ok(Math.abs(mass - massNumber) < 0.1, `${symbol}: ${mass} vs A = ${massNumber}`);
    assert.ok(Math.abs(ATOMIC_WEIGHTS[symbol] - mass) < 3.5, symbol);
    assert.ok(
      ATOMIC_WEIGHT_UNCERTAINTIES[symbol] > 0 && ATOMIC_WEIGHT_UNCERTAINTIES[symbol] / ATOMIC_WEIGHTS[symbol] < 0.01,
      symbol,
    );
  }
});

test('defining and well-known values', () => {
  assert.equal(MOST_ABUNDANT_ISOTOPES.C.mass, 12); // the dalton's definition
  assert.equal(MOST_ABUNDANT_ISOTOPES.H.mass, 1.007825031898); // AME2020
  assert.equal(MOST_ABUNDANT_ISOTOPES.O.mass, 15.99491461926);
  assert.equal(MOST_ABUNDANT_ISOTOPES.Fe.massNumber, 56); // not the lightest isotope (54)
  assert.equal(MOST_ABUNDANT_ISOTOPES.Se.massNumber, 80);
  assert.equal(MOST_ABUNDANT_ISOTOPES.Br.massNumber, 79); // 50.7 % against 81Br 49.3 %
  assert.equal(ATOMIC_WEIGHTS.Cu, 63.546);
  assert.equal(ATOMIC_WEIGHTS.S, 32.06);
});

// RDKit carries its own, older tables (isotope masses from an earlier AME, atomic weights before
// 2013; Ge moved from 72.61 to 72.630): agreement within those revisions catches a transcription slip in either table here.
test("agrees with RDKit's independent element tables within their revisions", async () => {
  await loadRDKit();
  for (const symbol of Object.keys(ATOMIC_WEIGHTS)) {
    const d = withMolecule(`[${symbol}]`, (mol) => descriptors(mol));
    assert.ok(
      Math.abs(d.exactmw - MOST_ABUNDANT_ISOTOPES[symbol].mass) < 2e-5,
      `${symbol}: ${MOST_ABUNDANT_ISOTOPES[symbol].mass} vs RDKit ${d.exactmw}`,
    );
    assert.ok(
      Math.abs(d.amw - ATOMIC_WEIGHTS[symbol]) < 0.025,
      `${symbol}: ${ATOMIC_WEIGHTS[symbol]} vs RDKit ${d.amw}`,
    );
  }
});
