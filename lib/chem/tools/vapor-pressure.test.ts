import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { withoutReferenceEquations } from '../../../test/support/reference-fluids.ts';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { chemsepEntry } from '../chemsep-layer.ts';
import { allCompounds } from '../compounds.ts';
import { referenceFluidByCas } from '../helmholtz/fluids.ts';
import { ToolError } from '../tool.ts';
import { boilingPointTool } from './boiling-point.ts';
import { vaporPressureTool } from './vapor-pressure.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(vaporPressureTool.outputSchema);
const validateInput = ajv.compile(vaporPressureTool.inputSchema);

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
  assert.ok(validateInput({ compound_name: 'water', temperature: 25, unit: '°C' }));
  assert.equal(validateInput({ compound_name: 'water' }), false);
  assert.equal(validateInput({ compound_name: '', temperature: 300 }), false);
  assert.equal(validateInput({ compound_name: 'water', temperature: '300' }), false);
  assert.equal(validateInput({ compound_name: 'water', temperature: 300, pressure: 1 }), false);
});

// The IAPWS-IF97 vectors through the tool: Psat(300 K) = 3536.59 Pa, Psat(500 K) = 2.638898 MPa.
test('water without its reference equation: IAPWS-IF97 vectors, with the pressure also in kPa and bar', () =>
  withoutReferenceEquations(() => {
    const r300 = vaporPressureTool.run({ compound_name: 'water', temperature: 300 });
    assert.ok(validateOutput(r300), ajv.errorsText(validateOutput.errors));
    assert.ok(Math.abs(r300.vapor_pressure.value - 3536.59) < 0.005);
    assert.equal(r300.vapor_pressure.unit, 'Pa');
    assert.match(r300.vapor_pressure.method, /IAPWS-IF97/);
    assert.deepEqual(r300.vapor_pressure.valid_range, { min: 273.15, max: 647.096, unit: 'K' });
    assert.deepEqual(r300.vapor_pressure.warnings, []);
    assert.ok(Math.abs(r300.vapor_pressure_kpa.value - 3.53659) < 1e-5);
    assert.ok(Math.abs(r300.vapor_pressure_bar.value - 0.0353659) < 1e-7);
    const r500 = vaporPressureTool.run({ compound_name: 'H2O', temperature: 226.85, unit: 'degC' });
    assert.equal(r500.temperature.value, 500);
    assert.ok(Math.abs(r500.vapor_pressure.value - 2.638898e6) / 2.638898e6 < 1e-6);
  }));

test('every compound with a critical temperature answers at 0.7·Tc with a schema-valid result that boiling point inverts', () => {
  const validateBoiling = ajv.compile(boilingPointTool.outputSchema);
  let checked = 0;
  for (const c of allCompounds()) {
    const tc = c.properties.critical_temperature?.value;
    if (tc === undefined) continue;
    const t = 0.7 * tc;
    const hasEquation = c.correlations?.vapor_pressure || chemsepEntry(c.cas)?.correlations.vapor_pressure;
    if (c.properties.acentric_factor === undefined && !hasEquation && c.cas !== '7732-18-5') {
      rejects({ compound_name: c.cas, temperature: t }, 'missing_data', /acentric factor/);
      continue;
    }
    const r = vaporPressureTool.run({ compound_name: c.cas, temperature: t });
    assert.ok(validateOutput(r), `${c.name}: ${ajv.errorsText(validateOutput.errors)}`);
    assert.ok(
      r.vapor_pressure.value > 0 && Number.isFinite(r.vapor_pressure.value),
      `${c.name}: ${r.vapor_pressure.value}`,
    );
    if (/Lee–Kesler/.test(r.vapor_pressure.method))
      assert.match(r.vapor_pressure.warnings.join(' '), /corresponding states/, c.name);
    const back = boilingPointTool.run({ compound_name: c.cas, pressure: r.vapor_pressure.value });
    assert.ok(validateBoiling(back), `${c.name}: ${ajv.errorsText(validateBoiling.errors)}`);
    assert.ok(
      Math.abs(back.boiling_point.value - t) < 1e-4,
      `${c.name}: ${t} K → ${r.vapor_pressure.value} Pa → ${back.boiling_point.value} K`,
    );
    checked++;
  }
  assert.ok(checked > 0);
});

test('bad inputs give the right ToolError', () => {
  rejects({ compound_name: 'unobtainium', temperature: 300 }, 'compound_not_found');
  rejects({ compound_name: 'water', temperature: 650 }, 'out_of_range', /critical temperature .*no vapour pressure/);
  rejects({ compound_name: 'propane', temperature: 100, unit: '°C' }, 'out_of_range', /critical temperature/);
  rejects({ compound_name: 'water', temperature: -300, unit: '°C' }, 'out_of_range', /absolute zero/);
  rejects({ compound_name: 'water', temperature: 0 }, 'out_of_range', /absolute zero/);
  rejects({ compound_name: 'water', temperature: 300, unit: 'kelvins please' }, 'unsupported_unit');
  rejects({ compound_name: 'water', temperature: 300, unit: 'bar' }, 'incompatible_units');
});

// IAPWS-95 Table 8 (IAPWS R6-95(2018)): Psat(450 K) = 0.932203564 MPa; the normal boiling point 373.124 K.
test('water with its reference equation on hand: IAPWS-95, named in the answer', {
  skip: referenceFluidByCas('7732-18-5') ? false : 'no reference-fluid files here',
}, () => {
  const r = vaporPressureTool.run({ compound_name: 'water', temperature: 450 });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.ok(Math.abs(r.vapor_pressure.value / 0.932203564e6 - 1) < 1e-8, `${r.vapor_pressure.value}`);
  assert.match(r.vapor_pressure.method, /^Reference equation of state for Water/);
  assert.match(r.vapor_pressure.source, /Wagner and A\. Pruß/);
  assert.deepEqual(r.vapor_pressure.warnings, []);
  const tb = boilingPointTool.run({ compound_name: 'water', pressure: 1, unit: 'atm' });
  assert.ok(Math.abs(tb.boiling_point.value - 373.124) < 0.0005, `${tb.boiling_point.value}`);
});
