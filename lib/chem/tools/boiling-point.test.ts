import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { withoutReferenceEquations } from '../../../test/support/reference-fluids.ts';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { ToolError } from '../tool.ts';
import { boilingPointTool } from './boiling-point.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(boilingPointTool.outputSchema);
const validateInput = ajv.compile(boilingPointTool.inputSchema);

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
  assert.ok(validateInput({ compound_name: 'water', pressure: 1, unit: 'atm' }));
  assert.equal(validateInput({ compound_name: 'water', pressure: 0 }), false);
  assert.equal(validateInput({ compound_name: 'water', pressure: -1 }), false);
  assert.equal(validateInput({ compound_name: 'water' }), false);
});

// The vector: IAPWS-IF97 Tsat(1 MPa) = 453.0356 K (±1e-4 K); and water boils at 373.124 K
// at 1 atm (IAPWS-95 normal boiling point; IF97 reproduces it to 1 mK).
test('water without its reference equation: IF97 backward equation, in K and °C', () =>
  withoutReferenceEquations(() => {
    const r = boilingPointTool.run({ compound_name: 'water', pressure: 10, unit: 'bar' });
    assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
    assert.equal(r.pressure.value, 1e6);
    assert.ok(Math.abs(r.boiling_point.value - 453.0356) < 1e-4);
    assert.match(r.boiling_point.method, /IAPWS-IF97 saturation-temperature equation/);
    assert.ok(Math.abs(r.boiling_point_celsius.value - (453.0356 - 273.15)) < 1e-4);
    assert.equal(r.boiling_point_celsius.unit, '°C');
    const atm = boilingPointTool.run({ compound_name: '水', pressure: 1, unit: 'atm' });
    assert.ok(Math.abs(atm.boiling_point.value - 373.124) < 0.001);
    assert.deepEqual(atm.boiling_point.warnings, []);
  }));

test('without its reference equation, below the triple-point pressure of water the answer is extrapolated and says so', () =>
  withoutReferenceEquations(() => {
    const r = boilingPointTool.run({ compound_name: 'water', pressure: 300, unit: 'Pa' });
    assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
    assert.ok(r.boiling_point.value < 273.15);
    assert.match(r.boiling_point.warnings.join(' '), /extrapolated/);
    assert.match(r.boiling_point.warnings.join(' '), /below the melting point/);
  }));

test('bad inputs give the right ToolError', () => {
  rejects({ compound_name: 'no such thing', pressure: 1e5 }, 'compound_not_found');
  rejects(
    { compound_name: 'water', pressure: 221, unit: 'bar' },
    'out_of_range',
    /critical pressure .*no boiling point/,
  );
  rejects({ compound_name: 'propane', pressure: 50, unit: 'bar' }, 'out_of_range', /critical pressure/);
  rejects({ compound_name: 'water', pressure: 1, unit: 'psig' }, 'unsupported_unit', /gauge/);
  rejects({ compound_name: 'water', pressure: 1, unit: 'K' }, 'incompatible_units');
});
