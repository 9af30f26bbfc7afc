import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hillFormula, molarMass, parseFormula } from './formula.ts';

test('parses counts, two-letter symbols and nested groups', () => {
  assert.deepEqual(parseFormula('C2H5OH'), { C: 2, H: 6, O: 1 });
  assert.deepEqual(parseFormula('CH3(CH2)4CH3'), { C: 6, H: 14 });
  assert.deepEqual(parseFormula('CHCl3'), { C: 1, H: 1, Cl: 3 });
  assert.deepEqual(parseFormula('[Si(CH3)2O]4'), { Si: 4, C: 8, H: 24, O: 4 });
});

test('rejects what is not a formula of known elements', () => {
  for (const text of ['', 'co2', 'C0', 'H2O)', '(H2O', '()2', 'Xx', 'ethanol', '2H2O', 'C-C']) {
    assert.equal(parseFormula(text), undefined, text);
  }
});

test('writes Hill order: C, H, then alphabetical; without carbon all alphabetical', () => {
  assert.equal(hillFormula({ O: 1, C: 2, H: 6 }), 'C2H6O');
  assert.equal(hillFormula({ Cl: 3, H: 1, C: 1 }), 'CHCl3');
  assert.equal(hillFormula({ N: 1, H: 3 }), 'H3N');
  assert.equal(hillFormula({ S: 1, O: 2 }), 'O2S');
  assert.equal(hillFormula({ Cl: 1, H: 1 }), 'ClH');
  assert.equal(hillFormula({ C: 1, O: 2 }), 'CO2');
});

test('molar masses match published values from IUPAC 2021 weights', () => {
  // Glucose is one of the chemistry roadmap's test vectors (issue 3): 180.156 g/mol.
  const cases: [string, number][] = [['C6H12O6', 180.156], ['H2O', 18.015], ['CO2', 44.009], ['C2H6O', 46.069], ['CHCl3', 119.37]];
  for (const [formula, expected] of cases) {
    assert.ok(Math.abs(molarMass(parseFormula(formula)!) - expected) < 0.0015, `${formula}: ${molarMass(parseFormula(formula)!)}`);
  }
});
