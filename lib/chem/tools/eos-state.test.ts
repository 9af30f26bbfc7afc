import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { CUBIC_EOS, CUBIC_EOS_IDS, pureState } from '../eos.ts';
import { referenceFluidByCas } from '../helmholtz/fluids.ts';
import { SIGNIFICANT_DIGITS, toMethodPrecision } from '../precision.ts';
import { ToolError } from '../tool.ts';
import { type EosStateResult, eosStateTool } from './eos-state.ts';

// Strict, to catch misspelt keywords; strictRequired off because groups of quantities name each one only in
// `required` (eos-shared.ts quantitiesObject), which the JSON Schema spec allows.
const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });
const validateOutput = ajv.compile(eosStateTool.outputSchema);
const validateInput = ajv.compile(eosStateTool.inputSchema);

/** Significant digits of x as JSON writes it (101418 → 6, 0.0353659 → 6). */
const digitsOf = (x: number) => x.toExponential().split('e')[0].replace(/[-.]/g, '').length;

/** Every computed value (one with a method) in an answer, with where it is. */
function computedValues(value: unknown, path = ''): [string, number][] {
  if (typeof value !== 'object' || value === null) return [];
  const here: [string, number][] =
    'method' in value && 'value' in value && typeof value.value === 'number' ? [[path, value.value]] : [];
  return [...here, ...Object.entries(value).flatMap(([key, inner]) => computedValues(inner, `${path}.${key}`))];
}

/** The unit each value of a phase is given in. */
const PHASE_UNITS = {
  compressibility_factor: '',
  molar_volume: 'm3/mol',
  density: 'kg/m3',
  fugacity_coefficient: '',
  fugacity: 'Pa',
} as const;
const CALORIC_UNITS = {
  enthalpy: 'J/mol',
  entropy: 'J/(mol·K)',
  isobaric_heat_capacity: 'J/(mol·K)',
  isochoric_heat_capacity: 'J/(mol·K)',
  speed_of_sound: 'm/s',
} as const;

function assertUnits(r: EosStateResult) {
  assert.deepEqual(
    Object.values(r.conditions).map((q) => q.unit),
    ['K', 'Pa'],
  );
  assert.equal(r.inputs.critical_temperature.unit, 'K');
  assert.equal(r.inputs.critical_pressure.unit, 'Pa');
  for (const phase of r.phases) {
    for (const [key, unit] of Object.entries(PHASE_UNITS))
      assert.equal(phase[key as keyof typeof PHASE_UNITS].unit, unit);
    if (phase.caloric)
      for (const [key, unit] of Object.entries(CALORIC_UNITS))
        assert.equal(phase.caloric[key as keyof typeof CALORIC_UNITS].unit, unit);
  }
}

const rejects = (args: Parameters<typeof eosStateTool.run>[0], code: string, message: RegExp) =>
  assert.throws(
    () => eosStateTool.run(args),
    (e: unknown) => e instanceof ToolError && e.code === code && message.test(e.message),
  );

test('input schema is FastMCP style', () => {
  const schema = argumentsSchema(eosStateTool);
  assert.equal(schema.title, 'service_eos_stateArguments');
  assert.deepEqual(schema.required, ['compound_name', 'temperature', 'pressure']);
  for (const [name, property] of Object.entries(schema.properties))
    assert.ok(property.title && property.description, name);
  assert.ok(
    validateInput({
      compound_name: 'propane',
      temperature: 300,
      pressure: 1e5,
      eos: 'srk',
      temperature_unit: 'C',
      pressure_unit: 'bar',
    }),
  );
  assert.equal(validateInput({ compound_name: 'propane', temperature: 300, pressure: 0 }), false);
  assert.equal(validateInput({ compound_name: 'propane', temperature: 300, pressure: 1e5, eos: 'bwr' }), false);
  assert.equal(validateInput({ compound_name: 'propane', temperature: 300 }), false);
  // Aliases (p_unit, temp_unit) are renamed before validation (runTool), never listed in the schema.
  assert.equal(validateInput({ compound_name: 'propane', temperature: 300, pressure: 1e5, unit: 'K' }), false);
  assert.equal(validateInput({ compound_name: 'propane', temperature: 300, pressure: 1e5, p_unit: 'bar' }), false);
});

test("its example, propane at 298 K and 1 bar: answered by propane's reference equation of state", () => {
  const r = eosStateTool.run(eosStateTool.example);
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.match(r.equation_of_state.name, /^Reference equation of state for n-Propane/);
});

test('results validate against the output schema: every equation, one and three roots, supercritical, liquid', () => {
  const cases = [
    { compound_name: 'propane', temperature: 298, pressure: 1e5 }, // three roots, vapour stable
    { compound_name: 'propane', temperature: 400, pressure: 60, pressure_unit: 'bar' }, // supercritical
    { compound_name: 'n-butane', temperature: 300, pressure: 50, pressure_unit: 'bar' }, // compressed liquid
    { compound_name: 'methane', temperature: 25, temperature_unit: '°C', pressure: 1, pressure_unit: 'atm' }, // gas
    { compound_name: 'water', temperature: 373.15, pressure: 101325 }, // near saturation for PR
    { compound_name: 'hydrogen', temperature: 300, pressure: 1e6 }, // data warnings on ω
  ];
  for (const args of cases) {
    for (const eos of CUBIC_EOS_IDS) {
      const result = eosStateTool.run({ ...args, eos });
      assert.ok(validateOutput(result), `${args.compound_name} ${eos}: ${ajv.errorsText(validateOutput.errors)}`);
    }
  }
});

test('the output schema rejects what the contract excludes, and answers give each value in its unit', () => {
  const result = structuredClone(
    eosStateTool.run({ eos: 'peng_robinson', compound_name: 'propane', temperature: 298, pressure: 1e5 }),
  );
  assertUnits(result);
  // Broken on purpose through views that let a unit go and a field appear.
  const molarVolume: { unit?: string } = result.phases[0].molar_volume;
  delete molarVolume.unit;
  assert.equal(validateOutput(result), false);
  const extra = structuredClone(
    eosStateTool.run({ eos: 'peng_robinson', compound_name: 'propane', temperature: 298, pressure: 1e5 }),
  );
  (extra.phases[0] as unknown as Record<string, unknown>).label = 'gas';
  assert.equal(validateOutput(extra), false);
  const reference = eosStateTool.run({ compound_name: 'propane', temperature: 298, pressure: 1e5 });
  assert.equal(reference.equation_of_state.id, 'reference');
  assertUnits(reference);
});

test('values keep the digits their equation supports: cubic 4, reference 6; reduced T and P 4', () => {
  const cubic = eosStateTool.run({ eos: 'srk', compound_name: 'propane', temperature: 298.15, pressure: 101325 });
  const values = computedValues(cubic);
  assert.equal(values.length, 10); // Z, V, ρ, φ, f of two roots
  for (const [path, value] of values)
    assert.ok(digitsOf(value) <= SIGNIFICANT_DIGITS.cubicEquation, `${path} ${value}`);
  for (const z of cubic.z_roots) assert.ok(digitsOf(z) <= SIGNIFICANT_DIGITS.cubicEquation, `${z}`);
  for (const ratio of [cubic.reduced_temperature, cubic.reduced_pressure]) assert.ok(digitsOf(ratio.value) <= 4);
  // Rounded where they are served, not before: the stable root is still chosen on the full numbers.
  const s = pureState(CUBIC_EOS.srk, { tc: 369.83, pc: 42.48e5, acentric: 0.152 }, 298.15, 101325);
  assert.equal(cubic.phases[1].compressibility_factor.value, toMethodPrecision(s.vapor!.z, 'cubicEquation'));
  assert.notEqual(cubic.phases[1].compressibility_factor.value, s.vapor!.z);
  const reference = eosStateTool.run({ compound_name: 'propane', temperature: 298.15, pressure: 101325 });
  const referenceValues = computedValues(reference);
  assert.equal(referenceValues.length, 10); // Z, V, ρ, φ, f and the five caloric values
  for (const [path, value] of referenceValues)
    assert.ok(digitsOf(value) <= SIGNIFICANT_DIGITS.referenceEquation, `${path} ${value}`);
  assert.ok(referenceValues.some(([, value]) => digitsOf(value) > SIGNIFICANT_DIGITS.cubicEquation));
});

test('propane at 298 K, 1 bar (PR, data constants): vapour stable, both roots reported with φ, f, density', () => {
  const r = eosStateTool.run({
    eos: 'peng_robinson',
    compound_name: 'propane',
    temperature: 298,
    pressure: 1,
    pressure_unit: 'bar',
  });
  assert.equal(r.equation_of_state.id, 'peng_robinson');
  assert.equal(r.z_roots.length, 3);
  assert.equal(r.phase, 'vapor');
  const [liquid, vapor] = r.phases;
  assert.deepEqual([liquid.phase, liquid.stable, vapor.phase, vapor.stable], ['liquid', false, 'vapor', true]);
  assert.ok(vapor.fugacity_coefficient.value < liquid.fugacity_coefficient.value);
  // Same numbers as the science function with the data's constants (369.83 K, 42.48 bar, ω 0.152), at 4 digits.
  const s = pureState(CUBIC_EOS.peng_robinson, { tc: 369.83, pc: 42.48e5, acentric: 0.152 }, 298, 1e5);
  assert.equal(vapor.molar_volume.value, toMethodPrecision(s.vapor!.molarVolume, 'cubicEquation'));
  assert.ok(Math.abs(s.vapor!.molarVolume / 0.024366 - 1) < 1e-4); // 0.024366 m3/mol with 369.8 K, 42.49 bar (eos.test.ts)
  assert.equal(vapor.density.value, toMethodPrecision(44.097 / 1000 / s.vapor!.molarVolume, 'cubicEquation'));
  assert.equal(vapor.fugacity.value, toMethodPrecision(Math.exp(s.vapor!.lnPhi) * 1e5, 'cubicEquation'));
  assert.equal(vapor.fugacity_coefficient.value, toMethodPrecision(Math.exp(s.vapor!.lnPhi), 'cubicEquation'));
  assert.deepEqual(
    r.z_roots,
    s.zRoots.map((z) => toMethodPrecision(z, 'cubicEquation')),
  );
  assert.equal(vapor.molar_volume.method, 'V = Z·R·T/P');
  assert.match(vapor.molar_volume.source, /Peng/);
  assert.equal(r.inputs.critical_pressure.value, 42.48e5);
  assert.match(r.inputs.critical_temperature.source, /Poling/);
});

test('units: 24.85 °C and 14.5038 psi give the state of 298 K and 100 kPa', () => {
  const si = eosStateTool.run({
    compound_name: 'propane',
    temperature: 298,
    pressure: 100,
    pressure_unit: 'kPa',
    eos: 'srk',
  });
  const other = eosStateTool.run({
    compound_name: 'propane',
    temperature: 24.85,
    temperature_unit: 'degC',
    pressure: 14.503773773,
    pressure_unit: 'psi',
    eos: 'srk',
  });
  assert.ok(Math.abs(other.conditions.temperature.value - 298) < 1e-9);
  assert.ok(Math.abs(other.conditions.pressure.value / 1e5 - 1) < 1e-9);
  assert.ok(Math.abs(other.z_roots[2] - si.z_roots[2]) < 1e-9);
  assert.equal(si.conditions.pressure.value, 1e5);
});

test('labels: supercritical, compressed liquid, near-saturation vapour-like, and the warnings that go with them', () => {
  assert.equal(
    eosStateTool.run({
      eos: 'peng_robinson',
      compound_name: 'propane',
      temperature: 400,
      pressure: 60,
      pressure_unit: 'bar',
    }).phase,
    'supercritical',
  );
  const liquid = eosStateTool.run({
    eos: 'peng_robinson',
    compound_name: 'n-butane',
    temperature: 300,
    pressure: 50,
    pressure_unit: 'bar',
  });
  assert.equal(liquid.phase, 'liquid');
  assert.match(liquid.warnings.join(' '), /service_liquid_density/);
  const saturated = eosStateTool.run({
    eos: 'peng_robinson',
    compound_name: 'n-butane',
    temperature: 350,
    pressure: 9.4573,
    pressure_unit: 'bar',
  });
  assert.equal(saturated.phase, 'vapor-like');
  assert.match(saturated.warnings.join(' '), /Near saturation/);
  const critical = eosStateTool.run({
    eos: 'peng_robinson',
    compound_name: 'propane',
    temperature: 370,
    pressure: 42,
    pressure_unit: 'bar',
  });
  // The measured near-critical error replaces the generic near-critical warning.
  assert.match(critical.warnings.join(' '), /^Near-critical region .* measured against \d+ reference equations/);
  assert.doesNotMatch(critical.warnings.join(' '), /Near the critical point/);
  const vdw = eosStateTool.run({ compound_name: 'methane', temperature: 300, pressure: 1e5, eos: 'van_der_waals' });
  assert.match(vdw.warnings.join(' '), /qualitative/);
  assert.equal(vdw.inputs.acentric_factor, undefined);
  const hydrogen = eosStateTool.run({
    eos: 'peng_robinson',
    compound_name: 'hydrogen',
    temperature: 300,
    pressure: 1e6,
  });
  assert.match(hydrogen.warnings.join(' '), /hydrogen acentric_factor/);
});

test('low-pressure limit: Z → 1 and φ → 1 through the tool', () => {
  const r = eosStateTool.run({ eos: 'peng_robinson', compound_name: 'ethanol', temperature: 500, pressure: 1 });
  assert.ok(Math.abs(r.phases[0].compressibility_factor.value - 1) < 1e-5);
  assert.ok(Math.abs(r.phases[0].fugacity_coefficient.value - 1) < 1e-5);
});

test('bad inputs give the right ToolError', () => {
  rejects(
    { compound_name: 'unobtainium', temperature: 300, pressure: 1e5 },
    'compound_not_found',
    /No compound matches/,
  );
  rejects(
    { eos: 'peng_robinson', compound_name: 'helium', temperature: 300, pressure: 1e5 },
    'missing_data',
    /acentric_factor.*redlich_kwong/,
  );
  assert.ok(
    validateOutput(
      eosStateTool.run({ compound_name: 'helium', temperature: 300, pressure: 1e5, eos: 'redlich_kwong' }),
    ),
  );
  rejects(
    { compound_name: 'propane', temperature: 300, pressure: 1e5, pressure_unit: 'furlong' },
    'unsupported_unit',
    /furlong/,
  );
  rejects(
    { compound_name: 'propane', temperature: 300, temperature_unit: 'bar', pressure: 1e5 },
    'incompatible_units',
    /temperature unit/,
  );
  rejects(
    { compound_name: 'propane', temperature: -300, temperature_unit: 'C', pressure: 1e5 },
    'out_of_range',
    /absolute zero/,
  );
  rejects(
    { eos: 'peng_robinson', compound_name: 'propane', temperature: 0, pressure: 1e5 },
    'out_of_range',
    /absolute zero/,
  );
});

test('conditions outside any use of a cubic equation are refused, not answered with overflowed numbers', () => {
  rejects(
    { compound_name: 'methane', temperature: 300, pressure: 2, pressure_unit: 'GPa' },
    'out_of_range',
    /above 1 GPa/,
  );
  rejects(
    { eos: 'peng_robinson', compound_name: 'propane', temperature: 1, pressure: 1, pressure_unit: 'GPa' },
    'out_of_range',
    /far outside/,
  );
  const subcooled = eosStateTool.run({ eos: 'peng_robinson', compound_name: 'water', temperature: 250, pressure: 1e5 });
  assert.match(subcooled.warnings.join(' '), /below the melting point of water/);
});

// IAPWS-95 Table 7 (IAPWS R6-95(2018)): at 300 K, 996.556 kg/m3 the pressure is 0.0992418352 MPa, w = 1501.51914 m/s.
test('eos "reference" (the default when the fluid has one): water from IAPWS-95 with caloric properties', () => {
  const r = eosStateTool.run({
    compound_name: 'water',
    temperature: 300,
    pressure: 0.0992418352,
    pressure_unit: 'MPa',
  });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.equal(r.equation_of_state.id, 'reference');
  assert.equal(r.phase, 'liquid');
  assert.equal(r.phases.length, 1);
  const liquid = r.phases[0];
  // Served at 6 digits (a reference equation).
  assert.equal(liquid.density.value, toMethodPrecision(996.556, 'referenceEquation'));
  assert.equal(liquid.caloric!.speed_of_sound.value, toMethodPrecision(1501.51914, 'referenceEquation'));
  // The equation is named once; each value gives its relation and the equation's source.
  assert.match(r.equation_of_state.name, /^Reference equation of state for Water/);
  assert.equal(liquid.density.method, 'M·ρ, ρ solved from p(ρ, T)');
  assert.match(liquid.density.source, /Wagner and A\. Pruß/);
  // Below the saturation pressure at 500 K (IAPWS-95 Table 7: 0.435 kg/m3 at 0.0999679423 MPa): vapour.
  const steam = eosStateTool.run({ compound_name: 'water', temperature: 500, pressure: 0.0999679423e6 });
  assert.equal(steam.phase, 'vapor');
  assert.equal(steam.phases[0].density.value, toMethodPrecision(0.435, 'referenceEquation'));
  // Above Tc and pc: supercritical.
  assert.equal(
    eosStateTool.run({ compound_name: 'CO2', temperature: 320, pressure: 100, pressure_unit: 'bar' }).phase,
    'supercritical',
  );
  // The cubic equations stay selectable.
  assert.equal(
    eosStateTool.run({ compound_name: 'water', temperature: 300, pressure: 1e5, eos: 'srk' }).equation_of_state.id,
    'srk',
  );
});

test('eos "reference" for a fluid without one, or outside its range, says what to use instead', () => {
  rejects(
    { compound_name: 'acetic acid', temperature: 300, pressure: 1e5, eos: 'reference' },
    'missing_data',
    /peng_robinson/,
  );
  rejects(
    { compound_name: 'water', temperature: 250, pressure: 1e5, eos: 'reference' },
    'out_of_range',
    /peng_robinson/,
  );
  // Without an eos argument, a fluid without a reference equation gets Peng–Robinson.
  assert.equal(
    eosStateTool.run({ compound_name: 'acetic acid', temperature: 400, pressure: 1e5 }).equation_of_state.id,
    'peng_robinson',
  );
});

// Found by the fuzz suite: 1.5e-300 Pa made the terms' powers of δ underflow into a crash.
test('eos "reference" at absurd conditions answers a ToolError, never a crash', () => {
  rejects({ compound_name: 'methane', temperature: 200, pressure: 1e-300, eos: 'reference' }, 'out_of_range', /below/);
  for (const fluid of ['water', 'methane', 'CO2', 'R-134a']) {
    for (const [temperature, pressure] of [
      [1e-3, 1e5],
      [1e4, 1e5],
      [300, 1e12],
      [300, 1e-5],
    ]) {
      try {
        assert.ok(validateOutput(eosStateTool.run({ compound_name: fluid, temperature, pressure, eos: 'reference' })));
      } catch (error) {
        assert.ok(error instanceof ToolError, `${fluid} at ${temperature} K, ${pressure} Pa: ${error}`);
      }
    }
  }
});

test('a cubic answering for a fluid without a reference equation states its measured error in the liquid and near-critical regions, not in a dilute gas', () => {
  const pentanol = (temperature: number, bar: number) =>
    eosStateTool.run({ compound_name: '1-pentanol', temperature, pressure: bar, pressure_unit: 'bar' });
  assert.equal(referenceFluidByCas('71-41-0'), undefined);
  const liquid = pentanol(300, 1);
  assert.equal(liquid.equation_of_state.id, 'peng_robinson');
  assert.match(
    liquid.warnings[0],
    /^Liquid region .*median [\d.]+ % in density .*measured against \d+ reference equations; for a saturated liquid use service_liquid_density\.$/,
  );
  const critical = pentanol(600, 39);
  assert.match(critical.warnings[0], /^Near-critical region .*95th percentile [\d.]+ %/);
  const gas = pentanol(500, 0.1);
  assert.equal(gas.phase, 'vapor');
  assert.deepEqual(
    gas.warnings.filter((w) => /region/.test(w)),
    [],
  );
});

test('carbon dioxide at 310 K and 100 bar: Span–Wagner by default; Peng–Robinson on request, with its near-critical error', () => {
  const args = { compound_name: 'carbon dioxide', temperature: 310, pressure: 100, pressure_unit: 'bar' };
  const reference = eosStateTool.run(args);
  assert.ok(Math.abs(reference.phases[0].density.value - 686) < 1);
  assert.deepEqual(reference.warnings, []);
  const cubic = eosStateTool.run({ ...args, eos: 'peng_robinson' });
  assert.ok(Math.abs(cubic.phases[0].density.value - 621) < 2);
  assert.match(cubic.warnings.join(' '), /Near-critical region .*measured against \d+ reference equations/);
});

test('air: its reference equation (Lemmon et al. 2000) as a pseudo-pure fluid, with its composition in place of a formula', () => {
  const r = eosStateTool.run({ compound_name: 'air', temperature: 300, pressure: 1, pressure_unit: 'bar' });
  assert.ok(validateOutput(r), JSON.stringify(validateOutput.errors));
  assert.equal(r.compound.name, 'air');
  assert.equal(r.compound.formula, undefined);
  assert.deepEqual(
    r.compound.composition?.map((c) => c.name),
    ['nitrogen', 'argon', 'oxygen'],
  );
  assert.equal(r.compound.molecular_weight.value, 28.9586);
  assert.match(r.equation_of_state.source, /Lemmon.*Air/);
  assert.equal(r.phase, 'vapor');
  assert.match(r.phase_basis, /Above the maxcondentherm of air \(132\.6312 K\)/);
  // Nearly an ideal gas at 1 bar: ρ = pM/(ZRT) with Z just under 1, R the equation's 8.31451.
  const [vapor] = r.phases;
  const z = vapor.compressibility_factor.value;
  assert.ok(z > 0.999 && z < 1, `Z = ${z}`);
  const ideal = (1e5 * 28.9586e-3) / (8.31451 * 300);
  assert.ok(Math.abs(vapor.density.value / (ideal / z) - 1) < 1e-5, `${vapor.density.value}`);
  assert.equal(eosStateTool.run({ compound_name: 'atmosphere', temperature: 300, pressure: 1e5 }).compound.name, 'air');
});

test('air below its maxcondentherm: liquid over the bubble point, vapour under the dew point, refused between', () => {
  const liquid = eosStateTool.run({ compound_name: 'air', temperature: 78, pressure: 101325 });
  assert.equal(liquid.phase, 'liquid');
  assert.ok(liquid.phases[0].density.value > 800);
  assert.match(liquid.phase_basis, /vapour under its dew-point pressure and liquid over its bubble-point pressure/);
  const vapor = eosStateTool.run({ compound_name: 'air', temperature: 100, pressure: 1e5 });
  assert.equal(vapor.phase, 'vapor');
  assert.throws(
    () => eosStateTool.run({ compound_name: 'air', temperature: 100, pressure: 6, pressure_unit: 'bar' }),
    (e: unknown) =>
      e instanceof ToolError &&
      e.code === 'out_of_range' &&
      /inside the two-phase region of air/.test(e.message) &&
      !/peng_robinson/.test(e.message),
  );
});

test('air with a cubic equation is refused as a mixture, saying what to use', () => {
  assert.throws(
    () => eosStateTool.run({ compound_name: 'air', temperature: 300, pressure: 1e5, eos: 'peng_robinson' }),
    (e: unknown) =>
      e instanceof ToolError &&
      e.code === 'is_mixture' &&
      /eos "reference".*service_mixture_properties/.test(e.message),
  );
});
