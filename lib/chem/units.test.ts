import assert from 'node:assert/strict';
import { test } from 'node:test';
import { R } from './constants.ts';
import { ToolError } from './tool.ts';
import { DIMENSIONS, SI_UNITS } from './unit-table.ts';
import { convert, findUnit, fromSI, listUnits, toSI, unitDimension } from './units.ts';

const close = (actual: number, expected: number, relative = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= relative * Math.abs(expected), `${actual} ≠ ${expected}`);

const isToolError = (code: string, pattern?: RegExp) => (e: unknown) =>
  e instanceof ToolError && e.code === code && (!pattern || pattern.test(e.message));

test('defining factors are the exact definitions of NIST SP 811', () => {
  // Exactly representable definitions must come out bit-for-bit.
  assert.equal(toSI(1, 'atm', 'pressure'), 101325);
  assert.equal(toSI(1, 'bar', 'pressure'), 1e5);
  assert.equal(toSI(1, 'cal', 'energy'), 4.184);
  assert.equal(toSI(1, 'cal_IT', 'energy'), 4.1868);
  assert.equal(toSI(1, 'Btu', 'energy'), 1055.05585262);
  assert.equal(toSI(1, 'lb', 'mass'), 0.45359237);
  assert.equal(toSI(1, 'ft', 'length'), 0.3048);
  assert.equal(toSI(1, 'in', 'length'), 0.0254);
  assert.equal(toSI(1, 'kgf', 'force'), 9.80665);
  assert.equal(toSI(1, 'eV', 'energy'), 1.602176634e-19);
  // Derived definitions, to binary floating point.
  close(toSI(1, 'psi', 'pressure'), 6894.757293168361); // 0.45359237·9.80665/0.0254²
  close(toSI(1, 'mmHg', 'pressure'), 133.322387415); // 13595.1 kg/m³ · gn · 1 mm
  close(toSI(760, 'torr', 'pressure'), 101325);
  close(toSI(1, 'inHg', 'pressure'), 3386.388640341);
  close(toSI(1, 'lbf', 'force'), 4.4482216152605);
  close(toSI(1, 'gal', 'volume'), 3.785411784e-3);
  close(toSI(1, 'bbl', 'volume'), 0.158987294928);
  close(toSI(1, 'hp', 'power'), 745.6998715822702);
  close(toSI(1, 'lbmol', 'amount'), 453.59237);
  close(toSI(1, 'lb/ft3', 'density'), 16.018463373960142);
  close(toSI(1, 'Btu/lb', 'specific_energy'), 2326); // the definition of the IT Btu
  close(toSI(1, 'Btu/(lb·°F)', 'specific_heat_capacity'), 4186.8);
  close(toSI(1, 'Btu/(lbmol·°F)', 'molar_entropy'), 4.1868);
  close(toSI(1, 'kcal/mol', 'molar_energy'), 4184);
  close(toSI(1, 'D', 'dipole_moment'), 3.33564095198152e-30);
});

test('the gas constant is CODATA 2018 R = NA·k', () => {
  close(R, 6.02214076e23 * 1.380649e-23, 1e-15);
  assert.equal(R.toPrecision(10), '8.314462618'); // the digits CODATA prints
  close(convert(R, 'J/(mol·K)', 'cal/(mol·K)').value, 1.98720425864083, 1e-13);
});

test('temperature scales: offsets and zeros', () => {
  assert.equal(convert(-40, '°C', '°F').value, -40);
  assert.equal(convert(-40, 'F', 'C').value, -40);
  assert.equal(convert(0, '°C', 'K').value, 273.15);
  assert.equal(convert(0, '°C', 'R').value, 491.67);
  assert.equal(convert(100, '°C', '°F').value, 212);
  assert.equal(convert(0, 'K', '°F').value, -459.67);
  assert.equal(convert(0, 'R', 'K').value, 0);
  assert.equal(toSI(25, 'degC', 'temperature'), 298.15);
  close(toSI(77, 'degF', 'temperature'), 298.15);
  close(fromSI(298.15, 'celsius', 'temperature'), 25);
  const cToF = convert(10, 'C', 'F');
  assert.deepEqual({ factor: cToF.factor, offset: cToF.offset }, { factor: 1.8, offset: 32 });
  assert.equal('offset' in convert(1, 'K', 'R'), false, 'K to R is purely multiplicative');
});

test('absolute temperatures below 0 K are refused', () => {
  assert.throws(() => toSI(-300, '°C', 'temperature'), isToolError('out_of_range', /absolute zero/));
  assert.throws(() => convert(-500, 'F', 'K'), isToolError('out_of_range'));
  assert.throws(() => fromSI(-1, '°C', 'temperature'), isToolError('out_of_range'));
  assert.equal(toSI(-273.15, '°C', 'temperature'), 0);
});

test('every unit round-trips through SI and converts to itself with factor 1', () => {
  for (const u of listUnits()) {
    for (const value of [1, 123.456, 1e-7, 6.02e23]) {
      const back = fromSI(toSI(value, u.symbol, u.dimension), u.symbol, u.dimension);
      // Adding and removing a temperature scale's offset costs digits at the offset's magnitude.
      assert.ok(
        Math.abs(back - value) <= 1e-12 * Math.max(Math.abs(value), u.offset),
        `${u.symbol}: ${back} ≠ ${value}`,
      );
    }
    const self = convert(2.5, u.symbol, u.symbol);
    assert.equal(self.value, 2.5, u.symbol);
    assert.equal(self.factor, 1, u.symbol);
    for (const alias of u.aliases) assert.equal(findUnit(alias), findUnit(u.symbol), `${alias} → ${u.symbol}`);
  }
});

test('each dimension lists its SI unit first, with factor 1 and no offset', () => {
  for (const dimension of DIMENSIONS) {
    const [first] = listUnits(dimension);
    assert.equal(first.symbol, SI_UNITS[dimension]);
    assert.equal(first.factor, 1);
    assert.equal(first.offset, 0);
  }
  assert.ok(listUnits('pressure').every((u) => u.dimension === 'pressure'));
});

test('common spellings are accepted', () => {
  const cases: [string, string][] = [
    ['°C', '°C'],
    ['C', '°C'],
    ['degC', '°C'],
    ['celsius', '°C'],
    ['℃', '°C'],
    ['deg C', '°C'],
    ['°F', '°F'],
    ['F', '°F'],
    ['degF', '°F'],
    ['R', 'R'],
    ['°R', 'R'],
    ['Rankine', 'R'],
    ['kelvin', 'K'],
    ['bar', 'bar'],
    ['kPa', 'kPa'],
    ['KPA', 'kPa'],
    ['kpa', 'kPa'],
    ['MPa', 'MPa'],
    ['Pa', 'Pa'],
    ['atm', 'atm'],
    ['psi', 'psi'],
    ['psia', 'psi'],
    ['mmHg', 'mmHg'],
    ['mm Hg', 'mmHg'],
    ['torr', 'torr'],
    ['Torr', 'torr'],
    ['inHg', 'inHg'],
    ['mbar', 'mbar'],
    ['m3/mol', 'm3/mol'],
    ['m^3/mol', 'm3/mol'],
    ['m³/mol', 'm3/mol'],
    ['L/mol', 'L/mol'],
    ['l/mol', 'L/mol'],
    ['cm3/mol', 'cm3/mol'],
    ['cm³·mol⁻¹', 'cm3/mol'],
    ['kg/m3', 'kg/m3'],
    ['kg m-3', 'kg/m3'],
    ['g/cm3', 'g/cm3'],
    ['g/cc', 'g/cm3'],
    ['g/mL', 'g/mL'],
    ['lb/ft3', 'lb/ft3'],
    ['J/mol', 'J/mol'],
    ['kJ/mol', 'kJ/mol'],
    ['kJ mol-1', 'kJ/mol'],
    ['cal/mol', 'cal/mol'],
    ['kcal/mol', 'kcal/mol'],
    ['J/(mol·K)', 'J/(mol·K)'],
    ['J/mol/K', 'J/(mol·K)'],
    ['J/(mol K)', 'J/(mol·K)'],
    ['J/(mol*K)', 'J/(mol·K)'],
    ['J/mol·K', 'J/(mol·K)'],
    ['J/molK', 'J/(mol·K)'],
    ['J mol^-1 K^-1', 'J/(mol·K)'],
    ['J·mol⁻¹·K⁻¹', 'J/(mol·K)'],
    ['J/(K·mol)', 'J/(mol·K)'],
    ['J/(mol·°C)', 'J/(mol·K)'],
    ['cal/(mol·K)', 'cal/(mol·K)'],
    ['g/mol', 'g/mol'],
    ['kg/kmol', 'kg/kmol'],
    ['Pa·s', 'Pa·s'],
    ['Pa s', 'Pa·s'],
    ['cP', 'cP'],
    ['mPa·s', 'mPa·s'],
    ['µm', 'µm'],
    ['μm', 'µm'],
    ['um', 'µm'],
    ['Å', 'Å'],
    ['kWh', 'kWh'],
    ['Btu', 'Btu'],
    ['BTU', 'Btu'],
    ['lbmol', 'lbmol'],
    ['h', 'h'],
    ['hr', 'h'],
  ];
  for (const [spelling, symbol] of cases) assert.equal(findUnit(spelling).symbol, symbol, spelling);
  assert.equal(unitDimension('psia'), 'pressure');
  assert.equal(unitDimension('J/mol/K'), 'molar_entropy');
  assert.equal(unitDimension(' kg/m3 '), 'density');
});

test('case decides between units that differ only in case', () => {
  assert.equal(findUnit('MPa').factor, 1e6);
  assert.equal(findUnit('mPa·s').dimension, 'dynamic_viscosity');
  assert.equal(findUnit('d').symbol, 'd'); // day
  assert.equal(findUnit('D').symbol, 'D'); // debye
});

test('converts between customary units', () => {
  close(convert(1, 'atm', 'psi').value, 14.6959487755134, 1e-13);
  close(convert(1, 'atm', 'mmHg').value, 759.999891725611, 1e-13); // the conventional mmHg is 2e-7 larger than the torr
  assert.equal(convert(1, 'atm', 'torr').value, 760);
  assert.equal(convert(1, 'bar', 'kPa').value, 100);
  close(convert(1, 'kcal/mol', 'kJ/mol').value, 4.184);
  close(convert(22.414, 'L/mol', 'm3/mol').value, 0.022414);
  close(convert(1, 'g/cm3', 'kg/m3').value, 1000);
  close(convert(62.42796, 'lb/ft3', 'g/mL').value, 1, 1e-6);
  close(convert(1, 'cP', 'Pa·s').value, 1e-3);
  const r = convert(2, 'bar', 'atm');
  assert.deepEqual(
    { from: r.from, to: r.to, dimension: r.dimension, exact: r.exact },
    { from: 'bar', to: 'atm', dimension: 'pressure', exact: true },
  );
  close(r.factor, 1e5 / 101325);
  assert.equal(convert(1, 'Da', 'kg').exact, false, 'the dalton is measured, not defined');
});

test('errors say what was wrong and what is accepted', () => {
  assert.throws(
    () => convert(1, 'bar', 'K'),
    isToolError('incompatible_units', /bar \(pressure\) to K \(temperature\)/),
  );
  assert.throws(
    () => toSI(1, 'bar', 'temperature'),
    isToolError('incompatible_units', /bar is a pressure unit.*temperature units: K, °C, °F, R/),
  );
  assert.throws(
    () => toSI(1, 'kpz', 'pressure'),
    isToolError('unsupported_unit', /Unknown unit "kpz"\. Did you mean kPa\?.*Accepted pressure units: Pa/),
  );
  assert.throws(() => toSI(1, 'psig', 'pressure'), isToolError('unsupported_unit', /gauge pressure.*absolute/));
  assert.throws(() => toSI(1, 'barg', 'pressure'), isToolError('unsupported_unit', /gauge/));
  assert.throws(() => unitDimension('furlong'), isToolError('unsupported_unit'));
  assert.throws(() => unitDimension(''), isToolError('unsupported_unit', /empty/));
  assert.throws(() => convert(Number.NaN, 'K', 'R'), isToolError('invalid_arguments'));
  try {
    toSI(1, 'degK', 'pressure');
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof ToolError);
    assert.deepEqual(e.details, { unit: 'degK', unit_dimension: 'temperature', expected_dimension: 'pressure' });
  }
});

test('an unknown unit is answered with the accepted units of its dimension, never with an internal function', () => {
  const refusal = (from: string, to: string) => {
    try {
      convert(1, from, to);
    } catch (error) {
      return error as { code: string; message: string; details?: { dimension?: string } };
    }
    assert.fail(`${from} → ${to} was accepted`);
  };
  const pressure = refusal('barz', 'kPa');
  assert.equal(pressure.code, 'unsupported_unit');
  assert.equal(pressure.details?.dimension, 'pressure');
  assert.match(pressure.message, /Did you mean bar\b.*Accepted pressure units: Pa, hPa, kPa/);
  assert.match(refusal('K', 'kelvinz').message, /Accepted temperature units: K, °C, °F, R/);
  const neither = refusal('furlong/fortnight', 'parsec');
  assert.match(neither.message, /Accepted units: temperature \(K, °C, °F, R\); pressure \(Pa, /);
  for (const { message } of [pressure, neither]) assert.doesNotMatch(message, /listUnits|\(\)/);
});
