import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { allCompounds, type Compound } from '../compounds.ts';
import { findCompound } from '../lookup.ts';
import { ToolError } from '../tool.ts';
import { liquidDensityOf, liquidDensityTool } from './liquid-density.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(liquidDensityTool.outputSchema);
const validateInput = ajv.compile(liquidDensityTool.inputSchema);

const isToolError = (code: string, message?: RegExp) => (e: unknown) =>
  e instanceof ToolError && e.code === code && (!message || message.test(e.message));

const propane = findCompound('propane').compound;
/** Propane as on record, plus the fixture's ZRA and optionally a measured density. */
function propaneWith(extra: Partial<Compound['properties']>): Compound {
  return { ...propane, properties: { ...propane.properties, ...extra } };
}
const ZRA = { rackett_compressibility: { value: 0.2763, unit: '', source: 'API Technical Data Book' } };

test('input schema is FastMCP style', () => {
  const schema = argumentsSchema(liquidDensityTool);
  assert.equal(schema.title, 'service_liquid_densityArguments');
  assert.deepEqual(schema.required, ['compound_name', 'temperature']);
  for (const [name, property] of Object.entries(schema.properties))
    assert.ok(property.title && property.description, name);
  assert.ok(validateInput({ compound_name: 'propane', temperature: 0, unit: '°C' }));
  assert.equal(validateInput({ compound_name: 'propane' }), false);
  assert.equal(validateInput({ compound_name: 'propane', temperature: 300, unit: 'K', extra: 1 }), false);
});

// The vector: Rackett, propane at 272.04 K with ZRA 0.2763 and the data's Tc and Pc
// (369.83 K, 42.48 bar): 531.3 kg/m3 (±0.5 kg/m3).
test('propane with ZRA 0.2763 at 272.04 K: 531.3 kg/m3, method "Rackett (Spencer–Danner ZRA)"', () => {
  const r = liquidDensityOf(propaneWith(ZRA), 272.04);
  assert.ok(Math.abs(r.liquid_density.value - 531.3) < 0.5, `${r.liquid_density.value}`);
  assert.match(r.liquid_density.method, /^Rackett \(Spencer–Danner ZRA\)/);
  assert.match(r.liquid_density.source, /API Technical Data Book/);
  assert.deepEqual(r.liquid_density.warnings, []);
  assert.ok(Math.abs(r.molar_volume.value - 44.097e-3 / r.liquid_density.value) < 1e-15);
  assert.deepEqual(r.liquid_density.valid_range, { min: 85.47, max: 369.83, unit: 'K' });
});

test('without ZRA the method is "Rackett with Zc", flagged', () => {
  const withoutZra: Compound = {
    ...propane,
    properties: Object.fromEntries(Object.entries(propane.properties).filter(([k]) => k !== 'rackett_compressibility')),
  };
  const r = liquidDensityOf(withoutZra, 272.04);
  assert.match(r.liquid_density.method, /^Rackett with Zc/);
  assert.match(r.liquid_density.warnings.join(' '), /No Rackett parameter ZRA/);
});

test('a measured density on record becomes a reference point with the deviation of the estimate', () => {
  const measured = {
    liquid_density: {
      value: 493.0,
      unit: 'kg/m3',
      source: 'a handbook',
      temperature: { value: 298.15, unit: 'K' as const },
    },
  };
  const r = liquidDensityOf(propaneWith({ ...ZRA, ...measured }), 250);
  const ref = r.reference_point!;
  assert.equal(ref.measured.value, 493.0);
  assert.deepEqual(ref.measured.temperature, { value: 298.15, unit: 'K' });
  const expected = liquidDensityOf(propaneWith(ZRA), 298.15).liquid_density.value;
  assert.equal(ref.estimated.value, expected);
  assert.ok(Math.abs(ref.deviation.value - (100 * (expected - 493)) / 493) < 1e-12);
  assert.ok(Math.abs(ref.deviation.value) < 1, `Rackett-ZRA vs measured: ${ref.deviation.value}%`);
  assert.deepEqual(r.liquid_density.warnings, []);
  const far = liquidDensityOf(propaneWith({ ...ZRA, liquid_density: { ...measured.liquid_density, value: 400 } }), 250);
  assert.match(far.liquid_density.warnings.join(' '), /% off the measured density/);
});

test('through the tool: every compound with Tc, Pc and Z validates against the output schema', () => {
  let checked = 0;
  for (const c of allCompounds()) {
    const p = c.properties;
    if (!p.critical_temperature || !p.critical_pressure || !(p.rackett_compressibility || p.critical_compressibility))
      continue;
    const t = Math.max(p.melting_point?.value ?? 0, 0.6 * p.critical_temperature.value);
    const r = liquidDensityTool.run({ compound_name: c.cas, temperature: t });
    assert.ok(validateOutput(r), `${c.name}: ${ajv.errorsText(validateOutput.errors)}`);
    assert.ok(r.liquid_density.value > 0 && Number.isFinite(r.liquid_density.value), c.name);
    checked++;
  }
  assert.ok(checked > 0);
  const r = liquidDensityTool.run({ compound_name: 'propane', temperature: -1.11, unit: '°C' });
  assert.ok(Math.abs(r.temperature.value - 272.04) < 1e-9);
});

test('below the melting point the value is extrapolated with a warning; bad inputs give the right ToolError', () => {
  assert.match(liquidDensityOf(propaneWith(ZRA), 80).liquid_density.warnings.join(' '), /below the melting point/);
  assert.throws(
    () => liquidDensityTool.run({ compound_name: 'propane', temperature: 369.83 }),
    isToolError('out_of_range', /critical temperature.*no liquid/),
  );
  assert.throws(
    () => liquidDensityTool.run({ compound_name: 'propane', temperature: 300, unit: 'Pa' }),
    isToolError('incompatible_units'),
  );
  assert.throws(
    () => liquidDensityTool.run({ compound_name: 'propanee', temperature: 300 }),
    isToolError('compound_not_found', /propane/),
  );
  const bare: Compound = { ...propane, properties: { molecular_weight: propane.properties.molecular_weight } };
  assert.throws(
    () => liquidDensityOf(bare, 250),
    isToolError(
      'missing_data',
      /critical temperature, critical pressure, Rackett parameter ZRA or critical compressibility Zc/,
    ),
  );
});
