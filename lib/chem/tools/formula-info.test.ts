import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { runTool } from '../../mcp/run-tool.ts';
import { ToolError } from '../tool.ts';
import { formulaInfoTool } from './formula-info.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(formulaInfoTool.outputSchema);
const validateInput = ajv.compile(formulaInfoTool.inputSchema);
const run = (formula: string) => {
  const result = formulaInfoTool.run({ formula });
  assert.ok(validateOutput(result), `${formula}: ${ajv.errorsText(validateOutput.errors)}`);
  return result;
};
const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected} ± ${tolerance}`);

test('input schema is FastMCP style', () => {
  const schema = argumentsSchema(formulaInfoTool);
  assert.equal(schema.title, 'service_formula_infoArguments');
  assert.equal(schema.properties.formula.title, 'Formula');
  assert.deepEqual(schema.required, []);
  assert.ok(validateInput({ formula: 'H2O' }));
  assert.equal(validateInput({ formula: '' }), false);
  assert.equal(validateInput({ formula: 'H2O', unit: 'g' }), false);
  assert.equal(validateInput({ formula: 'C'.repeat(201) }), false);
});

test('glucose 180.156, Ca(OH)2 74.093 g/mol (± 0.001)', () => {
  near(run('C6H12O6').molar_mass.value, 180.156, 0.001, 'C6H12O6');
  // IUPAC 2021 conventional weights give 74.092 exactly (74.0927 with the 2007 weights 74.093 is
  // rounded from): at the edge of the inclusive ± 0.001, so allow for binary floating point.
  near(run('Ca(OH)2').molar_mass.value, 74.093, 0.001 + 1e-9, 'Ca(OH)2');
});

test('its example, CuSO4·5H2O: 249.677 g/mol', () => {
  const r = formulaInfoTool.run(formulaInfoTool.example);
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  near(r.molar_mass.value, 249.677, 0.001, 'molar mass');
});

test('CuSO4·5H2O, often quoted as 249.685 g/mol: within the molar mass uncertainty, 249.677 with IUPAC 2021 values', () => {
  // 249.685 is the sum with the IUPAC 2007 standard atomic weights (S 32.065, O 15.9994, H 1.00794):
  assert.ok(Math.abs(63.546 + 32.065 + 9 * 15.9994 + 10 * 1.00794 - 249.685) < 0.0005);
  // IUPAC 2021 gives S, O and H as intervals; with their conventional values (32.06, 15.999, 1.008)
  // the sum is 249.677 ± 0.034, which contains 249.685.
  for (const text of ['CuSO4·5H2O', 'CuSO4.5H2O', 'CuSO4*5H2O']) {
    const r = run(text);
    assert.equal(r.formula, 'CuH10O9S', text);
    near(r.molar_mass.value, 249.677, 0.001, text);
    near(r.molar_mass.value, 249.685, r.molar_mass.uncertainty, `${text} within its uncertainty`);
    assert.deepEqual(r.components, [
      { as_written: 'CuSO4', coefficient: 1, formula: 'CuO4S' },
      { as_written: '5H2O', coefficient: 5, formula: 'H2O' },
    ]);
  }
});

test('aspirin: monoisotopic mass 180.042259 Da, Hill formula, element counts and mass percent', () => {
  const r = run('C9H8O4');
  near(r.monoisotopic_mass!.value, 180.042259, 1e-6, 'monoisotopic'); // PubChem exact mass 180.04225873
  assert.equal(r.monoisotopic_mass!.unit, 'Da');
  assert.match(r.monoisotopic_mass!.source, /AME2020/);
  assert.equal(r.nominal_mass!.value, 180);
  near(r.molar_mass.value, 180.159, 0.001, 'molar mass'); // 180.158 (PubChem, older weights)
  assert.deepEqual(r.element_counts, { C: 9, H: 8, O: 4 });
  assert.deepEqual(Object.keys(r.element_counts), ['C', 'H', 'O']);
  near(r.elements[0].mass_percent, 60.0, 0.01, '%C'); // 60.00 % C, 4.48 % H, 35.52 % O
  near(r.elements[1].mass_percent, 4.48, 0.01, '%H');
  near(r.elements[2].mass_percent, 35.52, 0.01, '%O');
  near(
    r.elements.reduce((sum, e) => sum + e.mass_percent, 0),
    100,
    1e-3,
    'sum of %',
  );
  assert.deepEqual(r.elements[0].most_abundant_isotope, { mass_number: 12, mass: 12 });
  assert.equal(r.charge, 0);
  assert.equal(r.ion_formula, undefined);
  assert.equal(r.warnings, undefined);
});

test('coordination compounds and brackets', () => {
  const r = run('K4[Fe(CN)6]');
  assert.equal(r.formula, 'C6FeK4N6');
  near(r.molar_mass.value, 368.35, 0.01, 'K4[Fe(CN)6]'); // 368.35 g/mol (CRC Handbook)
  near(run('K4[Fe(CN)6]·3H2O').molar_mass.value, 422.39, 0.01, 'trihydrate'); // 422.39 g/mol
});

test('ions: charge, ion formula and electron-mass correction', () => {
  const sulfate = run('SO4^2-');
  assert.equal(sulfate.charge, -2);
  assert.equal(sulfate.ion_formula, 'O4S^2-');
  // 31.97207117 + 4 × 15.99491462 + 2 × 0.00054858 Da
  near(sulfate.monoisotopic_mass!.value, 95.952827, 1e-6, 'SO4^2-');
  assert.match(sulfate.monoisotopic_mass!.method, /electron mass/);
  assert.match(sulfate.molar_mass.source, /IUPAC CIAAW/);
  assert.match(sulfate.molar_mass.electron_mass_source ?? '', /CODATA 2018/);
  assert.equal(sulfate.monoisotopic_mass!.electron_mass_source, sulfate.molar_mass.electron_mass_source);
  assert.equal(run('H2SO4').molar_mass.electron_mass_source, undefined);
  for (const text of ['SO4-2', 'SO4--', 'SO₄²⁻', 'SO4 2-'])
    assert.deepEqual(run(text).monoisotopic_mass, sulfate.monoisotopic_mass, text);
  const ammonium = run('NH4+');
  assert.equal(ammonium.ion_formula, 'H4N^+');
  near(ammonium.monoisotopic_mass!.value, 18.033826, 1e-6, 'NH4+'); // 18.034374 − 0.000549
  const ferricyanide = run('[Fe(CN)6]3-');
  assert.equal(ferricyanide.charge, -3);
  assert.equal(ferricyanide.formula, 'C6FeN6');
  const ferric = run('Fe3+');
  assert.equal(ferric.charge, 3);
  assert.match(ferric.warnings?.[0] ?? '', /one Fe atom/);
});

test('flags fractional formulas and elements whose weight varies in nature', () => {
  const hemihydrate = run('CaSO4·0.5H2O');
  near(hemihydrate.molar_mass.value, 145.14, 0.01, 'CaSO4·0.5H2O'); // 145.14 g/mol (plaster of Paris)
  assert.equal(hemihydrate.monoisotopic_mass, undefined);
  assert.match(hemihydrate.warnings?.join(' ') ?? '', /fractional/);
  const lead = run('PbCl2');
  assert.equal(lead.molar_mass.uncertainty, 1.12);
  assert.match(lead.warnings?.join(' ') ?? '', /Pb varies in natural materials/);
});

test('heavier elements used in chemistry are covered', () => {
  for (const text of [
    'AgNO3',
    'SnCl2',
    'PtCl4',
    'HAuCl4',
    'HgCl2',
    'Pb(NO3)2',
    'BaSO4',
    'CsCl',
    'RbI',
    'SrCO3',
    'MoO3',
    'WO3',
    'UF6',
    'KBr',
    'La2O3',
  ]) {
    const r = run(text);
    assert.ok(r.molar_mass.value > 0 && r.monoisotopic_mass!.value > 0, text);
  }
  near(run('UF6').molar_mass.value, 352.019, 0.001, 'UF6'); // 352.02 g/mol
});

test('caller mistakes are ToolErrors that say where', () => {
  const fails = (formula: string, pattern: RegExp) =>
    assert.throws(
      () => formulaInfoTool.run({ formula }),
      (e) => e instanceof ToolError && e.code === 'invalid_arguments' && pattern.test(e.message),
      formula,
    );
  fails('Ca(OH', /never closed/);
  fails('NaXy', /Unknown element symbol "Xy" at position 3/);
  fails('Ra(NO3)2', /no standard atomic weight/);
  fails('nacl', /lowercase/);
  fails('CuSO4··5H2O', /position 7/);
});

test('through runTool: an ion cites each table once, the electron mass by its own id', async () => {
  const { valueJson } = await runTool('service_formula_info', { formula: 'SO4^2-' });
  const answer = JSON.parse(valueJson!);
  const citations = Object.values(answer.sources) as string[];
  assert.equal(citations.filter((c) => /CODATA 2018/.test(c)).length, 1);
  assert.equal(answer.molar_mass.electron_mass_source, answer.monoisotopic_mass.electron_mass_source);
  assert.equal(answer.monoisotopic_mass.source, answer.nominal_mass.source);
});

test('masses keep the decimals exact tables give: 6 for masses, 4 for mass percentages', () => {
  const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;
  for (const text of ['C9H8O4', 'CuSO4·5H2O', 'SO4^2-', 'K4[Fe(CN)6]', 'UF6']) {
    const r = run(text);
    for (const x of [r.molar_mass.value, r.molar_mass.uncertainty, r.monoisotopic_mass!.value])
      assert.ok(decimals(x) <= 6, `${text}: ${x}`);
    for (const e of r.elements) assert.ok(decimals(e.mass_percent) <= 4, `${text} ${e.symbol}: ${e.mass_percent}`);
  }
});
