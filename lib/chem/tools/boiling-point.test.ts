import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { withDataLayersBut } from '../../../test/support/data-layers.ts';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { findCompound } from '../lookup.ts';
import { SIGNIFICANT_DIGITS, toMethodPrecision } from '../precision.ts';
import { boilingPointOf } from '../saturation.ts';
import { ToolError } from '../tool.ts';
import { boilingPointTool } from './boiling-point.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(boilingPointTool.outputSchema);
const validateInput = ajv.compile(boilingPointTool.inputSchema);

/** Significant digits of x as JSON writes it (373.124 → 6). */
const digitsOf = (x: number) => x.toExponential().split('e')[0].replace(/[-.]/g, '').length;
/** Decimal places of x as JSON writes it (99.974 → 3). */
const decimalsOf = (x: number) => String(x).split('.')[1]?.length ?? 0;

const rejects = (args: Parameters<typeof boilingPointTool.run>[0], code: string, message?: RegExp) =>
  assert.throws(
    () => boilingPointTool.run(args),
    (e: unknown) => e instanceof ToolError && e.code === code && (!message || message.test(e.message)),
  );

test('input schema is FastMCP style and constrains the arguments', () => {
  const schema = argumentsSchema(boilingPointTool);
  assert.equal(schema.title, 'service_boiling_pointArguments');
  assert.deepEqual(schema.required, ['compound_name', 'pressure']);
  for (const [name, property] of Object.entries(schema.properties))
    assert.ok(property.title && property.description, name);
  assert.ok(validateInput({ compound_name: 'water', pressure: 1, pressure_unit: 'atm' }));
  // `unit` is an alias, renamed before validation (runTool), never listed in the schema.
  assert.equal(validateInput({ compound_name: 'water', pressure: 1, unit: 'atm' }), false);
  assert.equal(validateInput({ compound_name: 'water', pressure: 0 }), false);
  assert.equal(validateInput({ compound_name: 'water', pressure: -1 }), false);
  assert.equal(validateInput({ compound_name: 'water' }), false);
});

test('its example, water at 1 atm: 373.124 K (99.974 °C) by the reference equation (IAPWS-95)', () => {
  const r = boilingPointTool.run(boilingPointTool.example);
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.ok(Math.abs(r.boiling_point.value - 373.124) < 0.001, `${r.boiling_point.value}`);
  assert.match(r.boiling_point.source, /IAPWS/);
  assert.deepEqual(r.boiling_point_celsius, { value: 99.974, unit: '°C' });
});

// IAPWS-IF97's verification value (Table 36): Tsat(1 MPa) = 453.0356 K (±1e-4 K); and water boils at 373.124 K
// at 1 atm (IAPWS-95 normal boiling point; IF97 reproduces it to 1 mK).
test('water from a data folder without CoolProp’s files: IF97 backward equation, in K and °C at 6 digits', () =>
  withDataLayersBut(['coolprop'], () => {
    const r = boilingPointTool.run({ compound_name: 'water', pressure: 10, pressure_unit: 'bar' });
    assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
    assert.equal(r.pressure.value, 1e6);
    // Computed to the vector's 1e-4 K, served at 6 digits (a reference formulation): 453.036 K.
    assert.ok(Math.abs(boilingPointOf(findCompound('water').compound, 1e6).temperature - 453.0356) < 1e-4);
    assert.equal(r.boiling_point.value, toMethodPrecision(453.0356, 'referenceEquation'));
    assert.match(r.boiling_point.method, /IAPWS-IF97 saturation-temperature equation/);
    // °C to the same decimal places as K: 453.036 − 273.15.
    assert.deepEqual(r.boiling_point_celsius, { value: 179.886, unit: '°C' });
    const atm = boilingPointTool.run({ compound_name: '水', pressure: 1, pressure_unit: 'atm' });
    assert.ok(Math.abs(atm.boiling_point.value - 373.124) < 0.001);
    assert.deepEqual(atm.boiling_point.warnings, []);
  }));

test('from a data folder without CoolProp’s files, below the triple-point pressure of water a fit whose range holds answers, subcooled; far below, out_of_range', () =>
  withDataLayersBut(['coolprop'], () => {
    // ChemSep's fit holds from 263.15 K, below IF97's 611.213 Pa: it answers, not IF97 extrapolated.
    const r = boilingPointTool.run({ compound_name: 'water', pressure: 300, pressure_unit: 'Pa' });
    assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
    assert.ok(r.boiling_point.value < 273.15);
    assert.match(r.boiling_point.method, /^ChemSep/);
    assert.doesNotMatch(r.boiling_point.warnings.join(' '), /the value is extrapolated/);
    assert.match(r.boiling_point.warnings.join(' '), /below the melting point/);
    // 0.001 Pa is below every curve's reach (Lee–Kesler's ends at 0.3·Tc, 0.045 Pa): refused, naming IF97's
    // pressure range, suggesting bar.
    rejects(
      { compound_name: 'water', pressure: 0.001 },
      'out_of_range',
      /IAPWS-IF97 saturation equation: 611\.213–22064000 Pa \(its saturation pressures over 273\.15–647\.096 K\).*did you mean 0\.001 bar/,
    );
  }));

test('bad inputs give the right ToolError', () => {
  rejects({ compound_name: 'no such thing', pressure: 1e5 }, 'compound_not_found');
  rejects(
    { compound_name: 'water', pressure: 221, pressure_unit: 'bar' },
    'out_of_range',
    /critical pressure .*no boiling point/,
  );
  rejects({ compound_name: 'propane', pressure: 50, pressure_unit: 'bar' }, 'out_of_range', /critical pressure/);
  rejects({ compound_name: 'water', pressure: 1, pressure_unit: 'psig' }, 'unsupported_unit', /gauge/);
  rejects({ compound_name: 'water', pressure: 1, pressure_unit: 'K' }, 'incompatible_units');
});

test('the boiling point keeps the digits its method supports, and °C the same decimal places as K', () => {
  for (const [name, pressure] of [
    ['ethanol', 101325],
    ['water', 101325],
    ['n-hexane', 5e4],
  ] as const) {
    const r = boilingPointTool.run({ compound_name: name, pressure });
    const point = boilingPointOf(findCompound(name).compound, pressure);
    assert.equal(r.boiling_point.value, toMethodPrecision(point.temperature, point.precision), name);
    assert.ok(
      digitsOf(r.boiling_point.value) <= SIGNIFICANT_DIGITS[point.precision],
      `${name}: ${r.boiling_point.value}`,
    );
    // 351.4 K is 78.2 °C (78.25 to K's one decimal place): within half a unit of that place.
    const places = SIGNIFICANT_DIGITS[point.precision] - 1 - Math.floor(Math.log10(r.boiling_point.value));
    assert.ok(decimalsOf(r.boiling_point_celsius.value) <= places, `${name}: ${r.boiling_point_celsius.value} °C`);
    const halfUnit = 0.5 * 10 ** -places + 1e-9;
    assert.ok(Math.abs(r.boiling_point_celsius.value - (r.boiling_point.value - 273.15)) <= halfUnit, `${name} °C`);
    // Stated once, on boiling_point.
    assert.deepEqual(Object.keys(r.boiling_point_celsius), ['value', 'unit']);
  }
});
