import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { ToolError } from '../tool.ts';
import { estimateJobackTool } from './estimate-joback.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(estimateJobackTool.outputSchema);
const validateInput = ajv.compile(estimateJobackTool.inputSchema);
const run = estimateJobackTool.run;

function near(actual: number | undefined, expected: number, tolerance: number, what: string) {
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) <= tolerance,
    `${what}: ${actual}, expected ${expected} ± ${tolerance}`,
  );
}

function rejectsWith(promise: Promise<unknown>, code: string, message: RegExp) {
  return assert.rejects(promise, (e: unknown) => e instanceof ToolError && e.code === code && message.test(e.message));
}

test('input schema is FastMCP style', () => {
  const schema = argumentsSchema(estimateJobackTool);
  assert.equal(schema.title, 'service_estimate_jobackArguments');
  assert.deepEqual(
    Object.entries(schema.properties).map(([key, p]) => [key, p.title]),
    [
      ['smiles', 'Smiles'],
      ['compound_name', 'Compound Name'],
      ['boiling_point', 'Boiling Point'],
      ['unit', 'Unit'],
    ],
  );
  assert.deepEqual(schema.required, []);
  assert.ok(validateInput({ smiles: 'CCO', boiling_point: 78.4, unit: '°C' }));
  assert.equal(validateInput({ smiles: '' }), false);
  assert.equal(validateInput({ smiles: 'CCO', temperature: 300 }), false);
});

// Issue 3 test vector (Joback, acetone): Tb 322.11 K, Tc 500.56 K, Pc 48.02 bar, Vc 209.5 cm3/mol,
// ΔHf° −217.83 kJ/mol; tolerances 0.05 in each unit.
test('acetone: the issue 3 vector, each value flagged as an estimate', async () => {
  const r = await run({ smiles: 'CC(C)=O' });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  const { estimates: e } = r;
  near(e.normal_boiling_point?.value, 322.11, 0.05, 'Tb');
  near(e.critical_temperature?.value, 500.56, 0.05, 'Tc');
  near(e.critical_pressure?.value, 48.02, 0.05, 'Pc');
  near(e.critical_volume?.value, 209.5, 0.05, 'Vc');
  near(e.enthalpy_of_formation_gas?.value, -217.83, 0.05, 'ΔHf°');
  assert.equal(e.critical_pressure?.unit, 'bar');
  assert.equal(e.critical_volume?.unit, 'cm3/mol');
  assert.equal(e.enthalpy_of_formation_gas?.unit, 'kJ/mol');
  assert.deepEqual(r.groups, [
    { group: '-CH3', count: 2, atoms: [0, 2] },
    { group: '>C=O (nonring)', count: 1, atoms: [1, 3] },
  ]);
  assert.equal(r.atom_count, 10);
  assert.equal(r.formula, 'C3H6O');
  for (const [key, value] of Object.entries(e)) {
    assert.equal(value.method, 'Joback–Reid group contribution', key);
    assert.match(value.source, /Joback.*Reid.*Chem\. Eng\. Commun\. 57 \(1987\) 233/, key);
    assert.match(value.warnings[0], /^Estimate, not a measurement/, key);
  }
  assert.match(e.critical_temperature?.note ?? '', /estimated Tb = 322\.11 K/);
  assert.ok(e.critical_temperature?.warnings.some((w) => /pass boiling_point/.test(w)));
  const cp = e.ideal_gas_heat_capacity!;
  assert.deepEqual(cp.valid_range, { min: 273, max: 1000, unit: 'K' });
  near(cp.coefficients.a.value, 7.52, 1e-9, 'Cp a');
  near(cp.value_at_298_15_K.value, 75.0, 0.1, 'Cp(298.15 K)'); // 7.52 + 0.26084·T − 1.207e-4·T² + 1.546e-8·T³
  assert.deepEqual(r.unavailable, []);
});

test('a measured boiling point, in any temperature unit, feeds the Tc equation', async () => {
  // Acetone, Tb = 56.05 °C = 329.20 K: Tc = 329.20 / 0.6435006 = 511.57 K.
  const r = await run({ smiles: 'CC(C)=O', boiling_point: 56.05, unit: '°C' });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  near(r.estimates.critical_temperature?.value, 511.57, 0.01, 'Tc');
  assert.match(r.estimates.critical_temperature?.note ?? '', /given Tb = 329\.2 K/);
  assert.ok(!r.estimates.critical_temperature?.warnings.some((w) => /pass boiling_point/.test(w)));
  near(r.estimates.normal_boiling_point?.value, 322.11, 0.005, 'Tb stays the estimate');
  await rejectsWith(run({ smiles: 'CC(C)=O', boiling_point: 300, unit: 'furlong' }), 'unsupported_unit', /furlong/);
  await rejectsWith(run({ smiles: 'CC(C)=O', boiling_point: 0 }), 'out_of_range', /above absolute zero/);
});

test('properties a group lacks are listed as unavailable, with the reason', async () => {
  const r = await run({ smiles: 'CC=NC' });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.equal(r.estimates.critical_volume, undefined);
  assert.equal(r.estimates.ideal_gas_heat_capacity, undefined);
  assert.deepEqual(
    r.unavailable.map((u) => u.property),
    [
      'melting_point',
      'critical_volume',
      'gibbs_energy_of_formation_gas',
      'enthalpy_of_fusion',
      'ideal_gas_heat_capacity',
    ],
  );
  assert.match(r.unavailable[0].reason, /-N= \(nonring\)/);
});

test('large molecules: Tb and Tc are flagged or withheld', async () => {
  const r = await run({ smiles: 'C'.repeat(40) });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.ok(r.estimates.normal_boiling_point?.warnings.some((w) => /overestimates/.test(w)));
  assert.ok(r.estimates.critical_temperature?.warnings.some((w) => /past the maximum/.test(w)));
  const huge = await run({ smiles: 'C'.repeat(150) });
  assert.equal(huge.estimates.critical_temperature, undefined);
  assert.match(
    huge.unavailable.find((u) => u.property === 'critical_temperature')?.reason ?? '',
    /no positive solution/,
  );
});

test('approximations in the group assignment are top-level warnings', async () => {
  const r = await run({ smiles: 'CC(=O)OC(C)=O' });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.match(r.warnings.join(' '), /possible decompositions/);
});

test('caller mistakes are ToolErrors that say what to do', async () => {
  await rejectsWith(run({ smiles: 'C1CC' }), 'invalid_arguments', /not a valid SMILES.*unclosed ring/);
  await rejectsWith(run({ smiles: 'CS(C)=O' }), 'missing_data', /no group for atom 1 \(S/);
  await rejectsWith(run({ smiles: 'CCO.O' }), 'invalid_arguments', /disconnected/);
  await rejectsWith(run({ smiles: 'C'.repeat(300) }), 'out_of_range', /too large/);
});
