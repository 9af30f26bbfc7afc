import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ELECTRON_MASS_DA } from './constants.ts';
import { hillFormula, molarMass, monoisotopicMass, nominalMass, parseFormula, readFormula } from './formula.ts';
import { ToolError } from './tool.ts';

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
  const cases: [string, number][] = [
    ['C6H12O6', 180.156],
    ['H2O', 18.015],
    ['CO2', 44.009],
    ['C2H6O', 46.069],
    ['CHCl3', 119.37],
  ];
  for (const [formula, expected] of cases) {
    assert.ok(
      Math.abs(molarMass(parseFormula(formula)!) - expected) < 0.0015,
      `${formula}: ${molarMass(parseFormula(formula)!)}`,
    );
  }
});

const invalidAt = (pattern: RegExp) => (e: unknown) =>
  e instanceof ToolError && e.code === 'invalid_arguments' && pattern.test(e.message);

test('reads groups, hydrates with ·, . and * and their coefficients', () => {
  assert.deepEqual(readFormula('Ca(OH)2').counts, { Ca: 1, O: 2, H: 2 });
  assert.deepEqual(readFormula('K4[Fe(CN)6]').counts, { K: 4, Fe: 1, C: 6, N: 6 });
  assert.deepEqual(readFormula('{[Co(NH3)6]}Cl3').counts, { Co: 1, N: 6, H: 18, Cl: 3 });
  for (const text of ['CuSO4·5H2O', 'CuSO4.5H2O', 'CuSO4*5H2O', 'CuSO4 · 5 H2O', 'CuSO4•5H2O']) {
    const r = readFormula(text);
    assert.deepEqual(r.counts, { Cu: 1, S: 1, O: 9, H: 10 }, text);
    assert.deepEqual(
      r.components.map((c) => c.coefficient),
      [1, 5],
      text,
    );
  }
  assert.deepEqual(readFormula('K2SO4·Al2(SO4)3·24H2O').counts, { K: 2, S: 4, O: 40, Al: 2, H: 48 });
  assert.deepEqual(readFormula('CaSO4·0.5H2O').counts, { Ca: 1, S: 1, O: 4.5, H: 1 });
  assert.deepEqual(readFormula('H₂O').counts, { H: 2, O: 1 });
});

test('reads charges in the usual notations', () => {
  const cases: [string, number][] = [
    ['SO4^2-', -2],
    ['SO4^-2', -2],
    ['SO4^(2-)', -2],
    ['SO4 2-', -2],
    ['SO4-2', -2],
    ['SO4--', -2],
    ['SO₄²⁻', -2],
    ['NH4+', 1],
    ['NH4^+', 1],
    ['Cl-', -1],
    ['[Fe(CN)6]3-', -3],
    ['[Fe(CN)6]4-', -4],
    ['Fe+3', 3],
    ['Fe3+', 3],
    ['H2O', 0],
  ];
  for (const [text, charge] of cases) assert.equal(readFormula(text).charge, charge, text);
  assert.deepEqual(readFormula('[Fe(CN)6]3-').counts, { Fe: 1, C: 6, N: 6 });
  assert.deepEqual(readFormula('NH4+').counts, { N: 1, H: 4 });
  // Ambiguous spellings are read one way and say how.
  assert.match(readFormula('Fe3+').notes[0], /one Fe atom with charge 3\+/);
  assert.deepEqual(readFormula('SO42-').counts, { S: 1, O: 42 });
  assert.match(readFormula('SO42-').notes[0], /SO4\^2-/);
  assert.deepEqual(readFormula('NH4+').notes, []);
});

test('mistakes name the position and the problem', () => {
  assert.throws(() => readFormula(''), invalidAt(/empty/));
  assert.throws(() => readFormula('Ca(OH'), invalidAt(/"\(" at position 3 is never closed/));
  assert.throws(() => readFormula('H2O)'), invalidAt(/"\)" at position 4 closes a bracket that was never opened/));
  assert.throws(
    () => readFormula('K4[Fe(CN)6)'),
    invalidAt(/"\)" at position 11 does not match "\[" opened at position 3/),
  );
  assert.throws(() => readFormula('CXx2'), invalidAt(/Unknown element symbol "Xx" at position 2/));
  assert.throws(() => readFormula('Tc2O7'), invalidAt(/Tc at position 1 has no standard atomic weight/));
  assert.throws(() => readFormula('D2O'), invalidAt(/deuterium/));
  assert.throws(() => readFormula('co2'), invalidAt(/"c" at position 1 is lowercase/));
  assert.throws(() => readFormula('H0'), invalidAt(/count "0" at position 2/));
  assert.throws(() => readFormula('2H2O'), invalidAt(/starts with a number/));
  assert.throws(() => readFormula('CuSO4·'), invalidAt(/Expected a formula at position 7/));
  assert.throws(() => readFormula('C-C'), invalidAt(/Unexpected character "-" at position 2/));
  assert.throws(() => readFormula('SO4^2+-'), invalidAt(/Cannot read the charge/));
  assert.throws(() => readFormula('C'.repeat(201)), invalidAt(/longer than 200/));
});

test('the strict form accepts one neutral formula unit only', () => {
  assert.deepEqual(parseFormula('CO2'), { C: 1, O: 2 });
  for (const text of ['NH4+', 'CuSO4·5H2O', 'C2H6 O', 'SO4^2-']) assert.equal(parseFormula(text), undefined, text);
});

test('monoisotopic and nominal masses (AME2020), ions corrected by the electron mass', () => {
  // Aspirin C9H8O4: 180.042259 Da (PubChem "exact mass" 180.04225873).
  assert.ok(Math.abs(monoisotopicMass(parseFormula('C9H8O4')!) - 180.042259) < 1e-6);
  // Caffeine C8H10N4O2: 194.080376 Da (PubChem 194.08037557).
  assert.ok(Math.abs(monoisotopicMass(parseFormula('C8H10N4O2')!) - 194.080376) < 1e-6);
  assert.equal(nominalMass(parseFormula('C9H8O4')!), 180);
  const sulfate = readFormula('SO4^2-');
  assert.ok(
    Math.abs(
      monoisotopicMass(sulfate.counts, sulfate.charge) - monoisotopicMass(sulfate.counts) - 2 * ELECTRON_MASS_DA,
    ) < 1e-12,
  );
  assert.ok(Math.abs(molarMass(sulfate.counts, sulfate.charge) - 96.0571) < 1e-4);
});
