import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { ToolError } from '../tool.ts';
import { convertUnitsTool } from './convert-units.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(convertUnitsTool.outputSchema);
const validateInput = ajv.compile(convertUnitsTool.inputSchema);
const run = (value: number, from_unit: string, to_unit: string) => {
  const result = convertUnitsTool.run({ value, from_unit, to_unit });
  assert.ok(validateOutput(result), ajv.errorsText(validateOutput.errors));
  return result;
};

test('input schema is FastMCP style', () => {
  const schema = argumentsSchema(convertUnitsTool);
  assert.equal(schema.title, 'service_convert_unitsArguments');
  assert.deepEqual(schema.required, ['value', 'from_unit', 'to_unit']);
  assert.deepEqual(
    Object.values(schema.properties).map((p) => p.title),
    ['Value', 'From Unit', 'To Unit'],
  );
  assert.ok(validateInput({ value: 1, from_unit: 'atm', to_unit: 'kPa' }));
  assert.equal(validateInput({ value: '1', from_unit: 'atm', to_unit: 'kPa' }), false);
  assert.equal(validateInput({ value: 1, from_unit: '', to_unit: 'kPa' }), false);
  assert.equal(validateInput({ value: 1, from_unit: 'atm' }), false);
  assert.equal(validateInput({ value: 1, from_unit: 'atm', to_unit: 'kPa', unit: 'x' }), false);
});

test('its example: 1 atm is 101.325 kPa exactly', () => {
  const { value, from_unit, to_unit } = convertUnitsTool.example;
  const r = run(value, from_unit, to_unit);
  assert.deepEqual(r.value, {
    value: 101.325,
    unit: 'kPa',
    method: "exact conversion through Pa from the units' definitions",
    source: r.value.source,
  });
  assert.match(r.value.source, /NIST SP 811/);
  assert.deepEqual(r.input, { value: 1, unit: 'atm' });
  assert.equal(r.dimension, 'pressure');
  assert.equal(r.si_unit, 'Pa');
  assert.equal(r.factor, 101.325);
  assert.equal(r.relation, '1 atm = 101.325 kPa');
  assert.equal(r.exact, true);
});

test('temperatures: offsets, no factor, relation written out', () => {
  const r = run(25, 'C', 'F');
  assert.equal(r.value.value, 77);
  assert.equal(r.value.unit, '°F');
  assert.equal(r.factor, undefined);
  assert.equal(r.relation, '°F = 1.8·°C + 32');
  assert.equal(run(-40, 'degC', 'degF').value.value, -40);
  assert.equal(run(0, '°C', 'Rankine').value.value, 491.67);
  assert.equal(run(300, 'K', '°C').relation, '°C = K − 273.15');
  assert.equal(run(100, 'R', 'K').factor, 0.555555555555556);
});

test('chemistry units, with the definitions that matter', () => {
  const r = run(1, 'kcal/mol', 'kJ/mol');
  assert.equal(r.value.value, 4.184);
  const s = run(8.314462618, 'J/mol/K', 'cal/(mol·K)');
  assert.ok(Math.abs(s.value.value - 1.987204259) < 1e-9);
  const cal = run(1, 'cal', 'J');
  assert.deepEqual(cal.definitions, ['thermochemical calorie = 4.184 J']);
  assert.ok(Math.abs(run(1, 'psi', 'Pa').value.value - 6894.757293168) < 1e-9);
  assert.equal(run(1, 'g/cm3', 'kg/m3').value.value, 1000);
  assert.equal(run(24.465, 'L/mol', 'm3/mol').value.value, 0.024465);
});

test('a measured unit is flagged as not exact', () => {
  const r = run(180.042, 'Da', 'kg');
  assert.equal(r.exact, false);
  assert.match(r.warnings?.[0] ?? '', /measured constant/);
  assert.match(r.value.source, /CODATA 2018/);
});

test('refuses incompatible dimensions, naming both', () => {
  assert.throws(
    () => convertUnitsTool.run({ value: 1, from_unit: 'bar', to_unit: 'K' }),
    (e) =>
      e instanceof ToolError &&
      e.code === 'incompatible_units' &&
      /bar \(pressure\).*K \(temperature\)/.test(e.message),
  );
  assert.throws(
    () => convertUnitsTool.run({ value: 1, from_unit: 'kJ/mol', to_unit: 'J/(mol·K)' }),
    (e) => e instanceof ToolError && e.code === 'incompatible_units' && /molar energy.*molar entropy/.test(e.message),
  );
});

test('unknown units and impossible temperatures are ToolErrors', () => {
  assert.throws(
    () => convertUnitsTool.run({ value: 1, from_unit: 'atm', to_unit: 'kPz' }),
    (e) =>
      e instanceof ToolError &&
      e.code === 'unsupported_unit' &&
      /kPa/.test(e.message) &&
      /Accepted pressure units/.test(e.message),
  );
  assert.throws(
    () => convertUnitsTool.run({ value: -1, from_unit: 'K', to_unit: '°C' }),
    (e) => e instanceof ToolError && e.code === 'out_of_range',
  );
});
