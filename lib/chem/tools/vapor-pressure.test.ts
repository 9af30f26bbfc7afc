import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { withDataLayersBut } from '../../../test/support/data-layers.ts';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { chemsepEntry } from '../chemsep-layer.ts';
import { allCompounds } from '../compounds.ts';
import { findCompound } from '../lookup.ts';
import { SIGNIFICANT_DIGITS, toMethodPrecision } from '../precision.ts';
import { boilingPointOf, vaporPressureOf } from '../saturation.ts';
import { ToolError } from '../tool.ts';
import { boilingPointTool } from './boiling-point.ts';
import { vaporPressureTool } from './vapor-pressure.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(vaporPressureTool.outputSchema);
const validateInput = ajv.compile(vaporPressureTool.inputSchema);

/** Significant digits of x as JSON writes it (101418 → 6, 0.0353659 → 6). */
const digitsOf = (x: number) => x.toExponential().split('e')[0].replace(/[-.]/g, '').length;

const rejects = (args: Parameters<typeof vaporPressureTool.run>[0], code: string, message?: RegExp) =>
  assert.throws(
    () => vaporPressureTool.run(args),
    (e: unknown) => e instanceof ToolError && e.code === code && (!message || message.test(e.message)),
  );

test('input schema is FastMCP style and constrains the arguments', () => {
  const schema = argumentsSchema(vaporPressureTool);
  assert.equal(schema.title, 'service_vapor_pressureArguments');
  assert.deepEqual(schema.required, ['compound_name', 'temperature']);
  for (const [name, property] of Object.entries(schema.properties))
    assert.ok(property.title && property.description, name);
  assert.ok(validateInput({ compound_name: 'water', temperature: 25, temperature_unit: '°C' }));
  // `unit` is an alias, renamed before validation (runTool), never listed in the schema.
  assert.equal(validateInput({ compound_name: 'water', temperature: 25, unit: '°C' }), false);
  assert.equal(validateInput({ compound_name: 'water' }), false);
  // An empty name passes the schema (a minLength would cost every session bytes) and is refused by the lookup.
  assert.throws(
    () => vaporPressureTool.run({ compound_name: '', temperature: 300 }),
    (e) => e instanceof ToolError && e.code === 'invalid_arguments' && /compound_name is empty/.test(e.message),
  );
  assert.equal(validateInput({ compound_name: 'water', temperature: '300' }), false);
  assert.equal(validateInput({ compound_name: 'water', temperature: 300, pressure: 1 }), false);
});

// IAPWS-95 gives 101.418 kPa at 100 °C (the saturation tables of its release).
test('its example, water at 100 °C: 101.418 kPa by the reference equation (IAPWS-95)', () => {
  const r = vaporPressureTool.run(vaporPressureTool.example);
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.equal(r.temperature.value, 373.15);
  assert.ok(Math.abs(r.vapor_pressure.value - 101418) <= 1, `${r.vapor_pressure.value}`);
  assert.match(r.vapor_pressure.source, /IAPWS/);
});

// IAPWS-IF97's verification values (Table 35) through the tool: Psat(300 K) = 3536.59 Pa, Psat(500 K) = 2.638898 MPa.
test('water from a data folder without CoolProp’s files: IAPWS-IF97 vectors, with the pressure also in kPa and bar', () =>
  withDataLayersBut(['coolprop'], () => {
    const r300 = vaporPressureTool.run({ compound_name: 'water', temperature: 300 });
    assert.ok(validateOutput(r300), ajv.errorsText(validateOutput.errors));
    assert.ok(Math.abs(r300.vapor_pressure.value - 3536.59) < 0.005);
    assert.equal(r300.vapor_pressure.unit, 'Pa');
    assert.match(r300.vapor_pressure.method, /IAPWS-IF97/);
    assert.deepEqual(r300.vapor_pressure.valid_range, { min: 273.15, max: 647.096, unit: 'K' });
    assert.deepEqual(r300.vapor_pressure.warnings, []);
    // The other units give the value only: method, source and warnings are stated once, on vapor_pressure.
    assert.deepEqual(r300.vapor_pressure_kpa, { value: 3.53659, unit: 'kPa' });
    assert.deepEqual(r300.vapor_pressure_bar, { value: 0.0353659, unit: 'bar' });
    const r500 = vaporPressureTool.run({ compound_name: 'H2O', temperature: 226.85, temperature_unit: 'degC' });
    assert.equal(r500.temperature.value, 500);
    // IF97 is a reference formulation: 6 significant digits, so 2.638898 MPa reads 2.63890 MPa.
    assert.equal(r500.vapor_pressure.value, toMethodPrecision(2.638898e6, 'referenceEquation'));
    const exact = vaporPressureOf(findCompound('water').compound, 500).pressure;
    assert.ok(Math.abs(exact - 2.638898e6) / 2.638898e6 < 1e-6, `${exact}`);
  }));

test('every compound with a critical temperature answers at 0.7·Tc at its method’s precision, schema-valid, and boiling point inverts it', () => {
  const validateBoiling = ajv.compile(boilingPointTool.outputSchema);
  let checked = 0;
  let refused = 0;
  for (const c of allCompounds()) {
    const tc = c.properties.critical_temperature?.value;
    if (tc === undefined) continue;
    const t = 0.7 * tc;
    const hasEquation = c.correlations?.vapor_pressure || chemsepEntry(c.cas)?.correlations.vapor_pressure;
    if (c.properties.acentric_factor === undefined && !hasEquation && c.cas !== '7732-18-5') {
      rejects({ compound_name: c.cas, temperature: t }, 'missing_data', /acentric factor/);
      continue;
    }
    // Without ω there is no Lee–Kesler (which holds over 0.3·Tc–Tc): an equation whose range does not reach
    // 0.7·Tc refuses, naming its range, instead of answering from far outside it.
    const onlyEquations = c.properties.acentric_factor === undefined || c.properties.critical_pressure === undefined;
    if (onlyEquations) {
      try {
        vaporPressureOf(c, t);
      } catch (error) {
        assert.ok(error instanceof ToolError && error.code === 'out_of_range', `${c.name}: ${error}`);
        assert.match(error.message, /The methods and their ranges: .*\d K/, c.name);
        refused++;
        continue;
      }
    }
    const r = vaporPressureTool.run({ compound_name: c.cas, temperature: t });
    assert.ok(validateOutput(r), `${c.name}: ${ajv.errorsText(validateOutput.errors)}`);
    assert.ok(
      r.vapor_pressure.value > 0 && Number.isFinite(r.vapor_pressure.value),
      `${c.name}: ${r.vapor_pressure.value}`,
    );
    if (/Lee–Kesler/.test(r.vapor_pressure.method))
      assert.match(r.vapor_pressure.warnings.join(' '), /corresponding states/, c.name);
    // The tool rounds to the method's precision; the inversion is checked on the unrounded pressure.
    const point = vaporPressureOf(c, t);
    assert.equal(r.vapor_pressure.value, toMethodPrecision(point.pressure, point.precision), c.name);
    assert.ok(
      digitsOf(r.vapor_pressure.value) <= SIGNIFICANT_DIGITS[point.precision],
      `${c.name}: ${r.vapor_pressure.value}`,
    );
    const inverse = boilingPointOf(c, point.pressure);
    assert.ok(
      Math.abs(inverse.temperature - t) < 1e-4,
      `${c.name}: ${t} K → ${point.pressure} Pa → ${inverse.temperature} K`,
    );
    const back = boilingPointTool.run({ compound_name: c.cas, pressure: point.pressure });
    assert.ok(validateBoiling(back), `${c.name}: ${ajv.errorsText(validateBoiling.errors)}`);
    assert.equal(back.boiling_point.value, toMethodPrecision(inverse.temperature, inverse.precision), c.name);
    checked++;
  }
  assert.ok(checked > 10 * refused, `${checked} answered, ${refused} refused`);
});

test('bad inputs give the right ToolError', () => {
  rejects({ compound_name: 'unobtainium', temperature: 300 }, 'compound_not_found');
  // Air is a mixture: no vapour pressure, and the message says why and what answers instead.
  rejects(
    { compound_name: 'air', temperature: 80 },
    'is_mixture',
    /no vapour pressure or boiling point: it condenses between its dew and bubble points/,
  );
  rejects({ compound_name: 'water', temperature: 650 }, 'out_of_range', /critical temperature .*no vapour pressure/);
  rejects(
    { compound_name: 'propane', temperature: 100, temperature_unit: '°C' },
    'out_of_range',
    /critical temperature/,
  );
  rejects({ compound_name: 'water', temperature: -300, temperature_unit: '°C' }, 'out_of_range', /absolute zero/);
  rejects({ compound_name: 'water', temperature: 0 }, 'out_of_range', /absolute zero/);
  rejects({ compound_name: 'water', temperature: 300, temperature_unit: 'kelvins please' }, 'unsupported_unit');
  rejects({ compound_name: 'water', temperature: 300, temperature_unit: 'bar' }, 'incompatible_units');
});

// IAPWS-95 Table 8 (IAPWS R6-95(2018)): Psat(450 K) = 0.932203564 MPa; the normal boiling point 373.124 K.
test('water answers from its reference equation, IAPWS-95, named in the answer', () => {
  const r = vaporPressureTool.run({ compound_name: 'water', temperature: 450 });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  // Served at 6 digits (a reference equation); computed to the table's 9.
  assert.equal(r.vapor_pressure.value, toMethodPrecision(0.932203564e6, 'referenceEquation'));
  const exact = vaporPressureOf(findCompound('water').compound, 450).pressure;
  assert.ok(Math.abs(exact / 0.932203564e6 - 1) < 1e-8, `${exact}`);
  assert.match(r.vapor_pressure.method, /^Reference equation of state for Water/);
  assert.match(r.vapor_pressure.source, /Wagner and A\. Pruß/);
  assert.deepEqual(r.vapor_pressure.warnings, []);
  const tb = boilingPointTool.run({ compound_name: 'water', pressure: 1, pressure_unit: 'atm' });
  assert.ok(Math.abs(tb.boiling_point.value - 373.124) < 0.0005, `${tb.boiling_point.value}`);
});

test('values keep the digits their method supports: ChemSep fit 4, reference equation or IF97 6, Lee–Kesler 4', () => {
  const ethanol = vaporPressureTool.run({ compound_name: 'ethanol', temperature: 298.15 });
  const point = vaporPressureOf(findCompound('ethanol').compound, 298.15);
  for (const v of [ethanol.vapor_pressure, ethanol.vapor_pressure_kpa, ethanol.vapor_pressure_bar])
    assert.ok(digitsOf(v.value) <= SIGNIFICANT_DIGITS[point.precision], `${v.value} ${v.unit}`);
  assert.equal(ethanol.vapor_pressure.value, toMethodPrecision(point.pressure, point.precision));
  assert.equal(ethanol.vapor_pressure_kpa.value, toMethodPrecision(point.pressure / 1000, point.precision));
  withDataLayersBut(['coolprop'], () => {
    const water = vaporPressureOf(findCompound('water').compound, 300);
    assert.match(water.method, /IAPWS-IF97/);
    assert.equal(water.precision, 'referenceEquation');
    const served = vaporPressureTool.run({ compound_name: 'water', temperature: 300 }).vapor_pressure.value;
    assert.equal(served, toMethodPrecision(water.pressure, 'referenceEquation'));
    assert.notEqual(served, water.pressure, 'IF97 gives more digits than it is served with');
  });
  // A compound whose only route is Lee–Kesler (no equation on record): a correlation, 4 digits.
  const methane = findCompound('methane').compound;
  const bare = { ...methane, cas: '0-00-0', correlations: undefined };
  const estimate = vaporPressureOf(bare, 150);
  assert.match(estimate.method, /^Lee–Kesler/);
  assert.equal(estimate.precision, 'correlation');
});
