import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { SIGNIFICANT_DIGITS, toMethodPrecision } from '../precision.ts';
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

/** `x` at the 3 significant digits a group contribution supports, as the tool reports it. */
const reported = (x: number) => toMethodPrecision(x, 'groupContribution');

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
      ['temperature_unit', 'Temperature Unit'],
    ],
  );
  assert.deepEqual(schema.required, []);
  assert.ok(validateInput({ smiles: 'CCO', boiling_point: 78.4, temperature_unit: '°C' }));
  // `unit` is an alias, renamed before validation (runTool), never listed in the schema.
  assert.equal(validateInput({ smiles: 'CCO', boiling_point: 78.4, unit: '°C' }), false);
  assert.equal(validateInput({ smiles: '' }), false);
  assert.equal(validateInput({ smiles: 'CCO', temperature: 300 }), false);
});

// Joback, acetone (the worked example of ../joback.ts): Tb 322.11 K, Tc 500.56 K, Pc 48.02 bar, Vc 209.5 cm3/mol,
// ΔHf° −217.83 kJ/mol; reported at the 3 significant digits a group contribution supports.
test("acetone, its example and the worked example: each value with its relation and Joback's error", async () => {
  assert.equal(estimateJobackTool.example.smiles, 'CC(C)=O');
  const r = await run(estimateJobackTool.example);
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  const { estimates: e } = r;
  assert.equal(e.normal_boiling_point?.value, reported(322.11));
  assert.equal(e.critical_temperature?.value, reported(500.56));
  assert.equal(e.critical_pressure?.value, reported(48.02));
  assert.equal(e.critical_volume?.value, reported(209.5));
  assert.equal(e.enthalpy_of_formation_gas?.value, reported(-217.83));
  assert.equal(e.critical_pressure?.unit, 'bar');
  assert.equal(e.critical_volume?.unit, 'cm3/mol');
  assert.equal(e.enthalpy_of_formation_gas?.unit, 'kJ/mol');
  assert.deepEqual(r.groups, [
    { group: '-CH3', count: 2, atoms: [0, 2] },
    { group: '>C=O (nonring)', count: 1, atoms: [1, 3] },
  ]);
  assert.equal(r.atom_count, 10);
  assert.equal(r.formula, 'C3H6O');
  assert.equal(r.method, 'Joback–Reid group contribution');
  assert.match(r.source, /Joback.*Reid.*Chem\. Eng\. Commun\. 57 \(1987\) 233/);
  const { ideal_gas_heat_capacity: cp, ...scalars } = e;
  assert.equal(Object.keys(scalars).length, 9);
  for (const [key, value] of Object.entries(scalars)) {
    assert.equal(value.source, r.source, key);
    assert.match(value.method, / = /, `${key}: its relation`);
    assert.match(value.note, /Average absolute error: \d/, key);
  }
  assert.equal(e.normal_boiling_point?.method, 'Tb = 198.2 + ΣN·tb');
  assert.match(e.critical_temperature?.note ?? '', /^With Joback's estimated Tb = 322 K\./);
  assert.ok(e.critical_temperature?.warnings?.some((w) => /boiling_point/.test(w)));
  assert.deepEqual(cp?.valid_range, { min: 273, max: 1000, unit: 'K' });
  near(cp?.coefficients.a, 7.52, 1e-9, 'Cp a');
  // 7.52 + 0.26084·T − 1.207e-4·T² + 1.546e-8·T³ = 74.97 J/(mol·K) at 298.15 K.
  assert.equal(cp?.value_at_298_15_K.value, reported(74.97));
  assert.deepEqual(r.unavailable, []);
});

test('every estimate has at most the 3 significant digits a group contribution supports', async () => {
  const digits = (x: number) => x.toExponential().split('e')[0].replace(/[-.]/g, '').length;
  for (const smiles of ['CC(C)=O', 'CCO', 'c1ccccc1O', 'CC(=O)Oc1ccccc1C(=O)O']) {
    const r = await run({ smiles, boiling_point: 351.44 });
    const { ideal_gas_heat_capacity: cp, ...scalars } = r.estimates;
    for (const [key, value] of [...Object.entries(scalars), ['Cp(298.15 K)', cp?.value_at_298_15_K] as const]) {
      assert.ok(
        value && digits(value.value) <= SIGNIFICANT_DIGITS.groupContribution,
        `${smiles} ${key}: ${value?.value}`,
      );
    }
  }
});

test('a measured boiling point, in any temperature unit, feeds the Tc equation', async () => {
  // Acetone, Tb = 56.05 °C = 329.20 K: Tc = 329.20 / 0.6435006 = 511.57 K.
  const r = await run({ smiles: 'CC(C)=O', boiling_point: 56.05, temperature_unit: '°C' });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.equal(r.estimates.critical_temperature?.value, reported(511.57));
  assert.match(r.estimates.critical_temperature?.note ?? '', /given Tb = 329\.2 K/);
  assert.equal(r.estimates.critical_temperature?.warnings, undefined);
  assert.equal(r.estimates.normal_boiling_point?.value, reported(322.11), 'Tb stays the estimate');
  assert.deepEqual(r.warnings, []);
  await rejectsWith(
    run({ smiles: 'CC(C)=O', boiling_point: 300, temperature_unit: 'furlong' }),
    'unsupported_unit',
    /furlong/,
  );
  await rejectsWith(run({ smiles: 'CC(C)=O', boiling_point: 0 }), 'out_of_range', /above absolute zero/);
});

test('a boiling point implausible in the default K is computed as given, with a warning naming °C', async () => {
  // 56.05 read as K is below acetone's estimated melting point (174 K): the caller meant °C.
  const r = await run({ smiles: 'CC(C)=O', boiling_point: 56.05 });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.match(
    r.warnings[0],
    /56\.05 was read in the default unit, K: below the melting point \(174 K\).*temperature_unit: "°C"/,
  );
  assert.match(r.estimates.critical_temperature?.note ?? '', /given Tb = 56\.05 K/);
  // A plausible value, or any value with its unit given, draws no such warning.
  assert.deepEqual((await run({ smiles: 'CC(C)=O', boiling_point: 329.2 })).warnings, []);
  assert.deepEqual((await run({ smiles: 'CC(C)=O', boiling_point: 56.05, temperature_unit: 'K' })).warnings, []);
  // A refusal carries the same hint.
  await rejectsWith(run({ smiles: 'CC(C)=O', boiling_point: 0 }), 'out_of_range', /temperature_unit: "°C"/);
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
  assert.ok(r.estimates.normal_boiling_point?.warnings?.some((w) => /overestimates/.test(w)));
  assert.ok(r.estimates.critical_temperature?.warnings?.some((w) => /past the maximum/.test(w)));
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
