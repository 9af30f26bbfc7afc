import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { chemsepEntry } from '../chemsep-layer.ts';
import { allCompounds, type Compound } from '../compounds.ts';
import { referenceFluidByCas } from '../helmholtz/fluids.ts';
import { polynomialHeatCapacity } from '../ideal-gas.ts';
import { fragmentJoback, jobackEstimate } from '../joback.ts';
import { findCompound } from '../lookup.ts';
import { nasaPolynomialFor } from '../nasa7.ts';
import { SIGNIFICANT_DIGITS, toMethodPrecision } from '../precision.ts';
import { ToolError } from '../tool.ts';
import { cpModelOf, idealGasThermoOf, idealGasThermoTool, JOBACK_CP_ERROR } from './ideal-gas-thermo.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(idealGasThermoTool.outputSchema);
const validateInput = ajv.compile(idealGasThermoTool.inputSchema);

/** Significant digits of x as JSON writes it (29.5803 → 6). */
const digitsOf = (x: number) => x.toExponential().split('e')[0].replace(/[-.]/g, '').length;

const isToolError = (code: string, message?: RegExp) => (e: unknown) =>
  e instanceof ToolError && e.code === code && (!message || message.test(e.message));

// Nitrogen with Poling et al. 5th ed. App. A coefficients (50–1000 K) as a stored correlation; against
// NIST-JANAF: Cp°(298.15) = 29.124, Cp°(500) = 29.580 J/(mol·K), H°(500) − H°(298.15) = 5.911 kJ/mol,
// S°(500) − S°(298.15) = 15.130 J/(mol·K). Tolerances 0.3% (Cp°, ΔH°), 0.05 J/(mol·K) (ΔS°).
const nitrogen: Compound = {
  ...findCompound('nitrogen').compound,
  cas: '0-00-0', // only the fixture's polynomial: no ChemSep fit or reference equation
  correlations: {
    ideal_gas_cp: {
      equation: 'cp_poly4',
      coefficients: [3.539, -0.261e-3, 0.007e-5, 0.157e-8, -0.099e-11],
      valid_range: { min: 50, max: 1000, unit: 'K' },
      source: 'Poling App. A',
    },
  },
};
// Acetone as a compound with no Cp° fit on record (no polynomial, and a CAS number ChemSep does not
// list): Joback's estimate from its SMILES.
const acetone: Compound = { ...findCompound('acetone').compound, cas: '0-00-0', correlations: undefined };

const within = (actual: number, expected: number, relative: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= relative * Math.abs(expected), `${what}: ${actual} vs ${expected}`);

test('input schema is FastMCP style', () => {
  const schema = argumentsSchema(idealGasThermoTool);
  assert.equal(schema.title, 'service_ideal_gas_thermoArguments');
  assert.deepEqual(schema.required, ['compound_name', 'temperature']);
  for (const [name, property] of Object.entries(schema.properties))
    assert.ok(property.title && property.description, name);
  assert.ok(
    validateInput({ compound_name: 'acetone', temperature: 500, reference_temperature: 25, temperature_unit: '°C' }),
  );
  // `unit` is an alias, renamed before validation (runTool), never listed in the schema.
  assert.equal(validateInput({ compound_name: 'acetone', temperature: 500, unit: '°C' }), false);
  assert.equal(validateInput({ compound_name: 'acetone' }), false);
  assert.equal(validateInput({ compound_name: 'acetone', temperature: 500, pressure: 1 }), false);
});

test("its example, nitrogen at 500 K: Cp° 29.58 J/(mol·K) as JANAF gives, from nitrogen's reference equation", async () => {
  const r = await idealGasThermoTool.run(idealGasThermoTool.example);
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  within(r.heat_capacity.value, 29.58, 0.003, 'Cp°(500)');
  assert.equal(r.heat_capacity.unit, 'J/(mol·K)');
  assert.match(r.heat_capacity.method, /^Reference equation of state for Nitrogen/);
});

test('stored polynomial: nitrogen from 298.15 to 500 K agrees with JANAF', async () => {
  const r = await idealGasThermoOf(nitrogen, 500, 298.15);
  within(r.heat_capacity.value, 29.58, 0.003, 'Cp°(500)');
  within(r.heat_capacity_at_reference.value, 29.124, 0.003, 'Cp°(298.15)');
  within(r.enthalpy_change.value, 5911, 0.003, 'ΔH°');
  assert.ok(Math.abs(r.entropy_change.value - 15.13) < 0.05, `ΔS° ${r.entropy_change.value}`);
  assert.match(r.heat_capacity.method, /^Ideal-gas heat-capacity polynomial Cp°\/R/);
  assert.match(r.heat_capacity.source, /^Poling App. A; /);
  assert.match(r.enthalpy_change.source, /^Poling App. A; .*exact integration/);
  // The changes name their relation to Cp°; heat_capacity names the Cp° method, once.
  assert.match(
    r.enthalpy_change.method,
    /^ΔH° = H°\(T\) − H°\(Tref\) = ∫ Cp° dT from Tref to T, integrated analytically$/,
  );
  assert.match(r.entropy_change.method, /^ΔS° = .*∫ Cp°\/T dT .*, integrated analytically$/);
  assert.deepEqual(r.heat_capacity.valid_range, { min: 50, max: 1000, unit: 'K' });
  assert.deepEqual(r.heat_capacity_at_reference, { value: r.heat_capacity_at_reference.value, unit: 'J/(mol·K)' });
  for (const v of [r.heat_capacity, r.enthalpy_change, r.entropy_change]) assert.deepEqual(v.warnings, []);
});

test("just outside the polynomial's range the values carry a warning; farther out, out_of_range; reversed limits change the signs", async () => {
  // 50–1000 K: the allowance is min(10 K, 5 % of 950 K) = 10 K.
  const r = await idealGasThermoOf(nitrogen, 1005, 298.15);
  assert.match(
    r.heat_capacity.warnings.join(' '),
    /^1005 K is 5 K above the range of the ideal-gas Cp° polynomial on record \(50–1000 K\); the value is extrapolated\.$/,
  );
  assert.equal(r.heat_capacity_at_reference.warnings, undefined, 'Tref is inside the range');
  assert.equal(r.enthalpy_change.warnings.length, 1);
  assert.equal(r.entropy_change.warnings.length, 1);
  const cold = await idealGasThermoOf(nitrogen, 500, 45);
  assert.match(cold.heat_capacity_at_reference.warnings?.join(' ') ?? '', /^45 K is 5 K below the range/);
  for (const [t, tRef] of [
    [1500, 298.15],
    [500, 30],
  ])
    await assert.rejects(
      idealGasThermoOf(nitrogen, t, tRef),
      isToolError('out_of_range', /ideal-gas Cp° polynomial on record: 50–1000 K/),
    );
  const back = await idealGasThermoOf(nitrogen, 298.15, 500);
  const forward = await idealGasThermoOf(nitrogen, 500, 298.15);
  assert.equal(back.enthalpy_change.value, -forward.enthalpy_change.value);
});

// Joback, acetone (2 × -CH3, 1 × >C=O): Cp° = 7.52 + 0.26084·T − 1.207e-4·T² + 1.546e-8·T³ J/(mol·K)
// from Poling's Table 2-2, so Cp°(298.15 K) = 74.97 J/(mol·K) (measured: about 74.5).
test('no polynomial on record: Joback from the SMILES, flagged as an estimate, at 3 digits', async () => {
  const r = await idealGasThermoOf(acetone, 298.15, 298.15);
  const model = await cpModelOf(acetone, 298.15, 298.15);
  assert.ok(Math.abs(model.cp(298.15) - 74.97) < 0.01, `${model.cp(298.15)}`);
  // A group-contribution estimate keeps 3 significant digits: 75.0.
  assert.equal(r.heat_capacity.value, toMethodPrecision(74.97, 'groupContribution'));
  assert.match(r.heat_capacity.method, /^Joback–Reid group contribution estimate from the SMILES CC\(C\)=O \(groups: /);
  assert.match(r.heat_capacity.method, /2 × -CH3/);
  assert.match(r.heat_capacity.method, /1 × >C=O \(nonring\)/);
  assert.match(r.heat_capacity.source, /Joback/);
  assert.match(r.heat_capacity.warnings[0], /^Estimated by Joback–Reid group contribution/);
  assert.equal(r.enthalpy_change.value, 0);
  assert.equal(r.entropy_change.value, 0);
  assert.deepEqual(r.heat_capacity.valid_range, { min: 273, max: 1000, unit: 'K' });
});

test('through the tool: units, default reference, schema-valid results', async () => {
  const r = await idealGasThermoTool.run({ compound_name: 'acetone', temperature: 226.85, temperature_unit: '°C' });
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
  assert.ok(Math.abs(r.temperature.value - 500) < 1e-9);
  assert.equal(r.reference_temperature.value, 298.15);
  assert.ok(r.enthalpy_change.value > 0 && r.entropy_change.value > 0);
  const celsius = await idealGasThermoTool.run({
    compound_name: 'acetone',
    temperature: 500,
    reference_temperature: 25,
    temperature_unit: 'C',
  });
  assert.ok(Math.abs(celsius.reference_temperature.value - 298.15) < 1e-9);
  assert.ok(validateOutput(celsius), ajv.errorsText(validateOutput.errors));
});

test('bad inputs give the right ToolError', async () => {
  await assert.rejects(
    idealGasThermoTool.run({ compound_name: 'acetonee', temperature: 300 }),
    isToolError('compound_not_found'),
  );
  await assert.rejects(
    idealGasThermoTool.run({ compound_name: 'acetone', temperature: 300, temperature_unit: 'bar' }),
    isToolError('incompatible_units'),
  );
  await assert.rejects(
    idealGasThermoTool.run({
      compound_name: 'acetone',
      temperature: 300,
      reference_temperature: -500,
      temperature_unit: 'degC',
    }),
    isToolError('out_of_range', /absolute zero/),
  );
  const argon: Compound = { ...findCompound('argon').compound, cas: '0-00-0', correlations: undefined };
  await assert.rejects(
    idealGasThermoOf(argon, 300, 298.15),
    isToolError('missing_data', /Joback's method cannot estimate one/),
  );
});

// Small molecules are where Joback is worst (CO2 +9 %); each of these has measured data to answer from.
test('small molecules answer from a reference equation’s ideal part or a fit to measured data, ΔH° and ΔS° its integrals', async () => {
  for (const name of ['water', 'ammonia', 'hydrogen', 'carbon monoxide', 'hydrogen sulfide', 'carbon dioxide']) {
    const r = await idealGasThermoTool.run({ compound_name: name, temperature: 800 });
    assert.ok(validateOutput(r), `${name}: ${ajv.errorsText(validateOutput.errors)}`);
    assert.match(
      r.heat_capacity.method,
      /^(Reference equation of state|NASA 7-coefficient|ChemSep DIPPR equation|Ideal-gas heat-capacity polynomial)/,
      name,
    );
    assert.deepEqual(r.heat_capacity.warnings, [], name);
    // ΔH° = ∫Cp° dT and ΔS° = ∫Cp°/T dT of the Cp° served: trapezoid sums over 0.5 K steps agree to 1e-5
    // with the model's integrals, which the tool serves at the model's precision.
    const model = await cpModelOf(findCompound(name).compound, 800, 298.15);
    let dh = 0;
    let ds = 0;
    for (let t = 298.15; t < 800; t += 0.5) {
      const next = Math.min(t + 0.5, 800);
      dh += 0.5 * (model.cp(t) + model.cp(next)) * (next - t);
      ds += 0.5 * (model.cp(t) / t + model.cp(next) / next) * (next - t);
    }
    within(model.deltaH(298.15, 800), dh, 1e-5, `${name} ΔH°`);
    within(model.deltaS(298.15, 800), ds, 1e-5, `${name} ΔS°`);
    assert.equal(r.enthalpy_change.value, toMethodPrecision(model.deltaH(298.15, 800), model.precision), name);
    assert.equal(r.entropy_change.value, toMethodPrecision(model.deltaS(298.15, 800), model.precision), name);
    assert.equal(r.heat_capacity.value, toMethodPrecision(model.cp(800), model.precision), name);
  }
});

// JOBACK_CP_ERROR states a measurement; this repeats it, so the numbers in the warning stay true.
test('the error stated for Joback’s Cp° is what the data measure', async () => {
  const errors: number[] = [];
  const compounds = new Set<string>();
  for (const c of allCompounds()) {
    const poling = c.correlations?.ideal_gas_cp;
    const fit = chemsepEntry(c.cas)?.correlations.ideal_gas_cp;
    if (!poling && !fit) continue;
    let groups: Awaited<ReturnType<typeof fragmentJoback>>;
    try {
      groups = await fragmentJoback(c.smiles);
    } catch {
      continue;
    }
    const cp = jobackEstimate(groups.counts, { atomCount: groups.atomCount }).ideal_gas_heat_capacity;
    if (!cp) continue;
    for (const t of [298.15, 800]) {
      const measured =
        poling && t >= poling.valid_range.min && t <= poling.valid_range.max
          ? polynomialHeatCapacity(poling.coefficients, t)
          : fit && t >= fit.range.min && t <= fit.range.max
            ? fit.value(t)
            : undefined;
      if (measured === undefined) continue;
      const joback = cp.a + cp.b * t + cp.c * t * t + cp.d * t ** 3;
      errors.push(Math.abs((100 * (joback - measured)) / measured));
      compounds.add(c.cas);
    }
  }
  errors.sort((a, b) => a - b);
  assert.equal(compounds.size, JOBACK_CP_ERROR.compounds);
  assert.ok(Math.abs(errors[Math.floor(errors.length / 2)] - JOBACK_CP_ERROR.median) < 0.05);
  assert.ok(Math.abs(errors[Math.floor(errors.length * 0.95)] - JOBACK_CP_ERROR.p95) < 0.05);
});

// NIST-JANAF for N2 (as in the Poling test above): Cp°(500 K) = 29.580 J/(mol·K), ΔH°(298.15→500 K) = 5.911 kJ/mol.
// Nitrogen has a reference equation (Span et al. 2000), whose ideal part answers before NASA-7.
test('nitrogen answers from its reference equation’s ideal part, ahead of the NASA-7 polynomials', async () => {
  assert.ok(nasaPolynomialFor('7727-37-9'), 'nitrogen has a NASA-7 fit too');
  const r = await idealGasThermoTool.run({ compound_name: 'nitrogen', temperature: 500 });
  assert.match(r.heat_capacity.method, /^Reference equation of state for Nitrogen/);
  assert.match(r.heat_capacity.source, /Span/);
  within(r.heat_capacity.value, 29.58, 0.003, 'Cp°(500)');
  within(r.enthalpy_change.value, 5911, 0.003, 'ΔH°');
});

// Nitric oxide has no reference equation but a NASA-7 fit. NIST Chemistry WebBook (Shomate equation
// from Chase, NIST-JANAF 1998, 298–1200 K): Cp°(500 K) = 30.51 J/(mol·K), ΔH°(298.15→500 K) = 6.057 kJ/mol.
test('a gas without a reference equation answers from the NASA-7 polynomials, species and reference code named', async () => {
  assert.equal(referenceFluidByCas('10102-43-9'), undefined);
  const r = await idealGasThermoTool.run({ compound_name: 'nitric oxide', temperature: 500 });
  assert.match(r.heat_capacity.method, /^NASA 7-coefficient polynomials: .*species NO \(/);
  assert.match(r.heat_capacity.source, /McBride, S\. Gordon, M\. A\. Reno.*; species NO, data reference TPIS89$/);
  within(r.heat_capacity.value, 30.51, 0.003, 'Cp°(500)');
  within(r.enthalpy_change.value, 6057, 0.003, 'ΔH°');
});

test('values keep the digits their method supports: reference equation 6, NASA-7 5, fits 4, Joback 3', async () => {
  const seen = new Set<string>();
  const cases: [Compound, number][] = [
    [findCompound('nitrogen').compound, 500],
    [findCompound('nitric oxide').compound, 500],
    [findCompound('methane').compound, 1000],
    [findCompound('acetone').compound, 500],
    [findCompound('n-decane').compound, 600],
    [nitrogen, 500],
    [acetone, 500],
  ];
  for (const [compound, t] of cases) {
    const model = await cpModelOf(compound, t, 298.15);
    const r = await idealGasThermoOf(compound, t, 298.15);
    const digits = SIGNIFICANT_DIGITS[model.precision];
    for (const v of Object.values(r)) assert.ok(digitsOf(v.value) <= digits, `${compound.name}: ${v.value} ${v.unit}`);
    seen.add(model.precision);
  }
  assert.deepEqual([...seen].sort(), ['correlation', 'groupContribution', 'polynomialFit', 'referenceEquation']);
});

test('air: Cp° from the ideal part of its reference equation (Lemmon et al. 2000)', async () => {
  const r = await idealGasThermoTool.run({ compound_name: 'air', temperature: 200 });
  assert.ok(validateOutput(r), JSON.stringify(validateOutput.errors));
  assert.equal(r.compound.name, 'air');
  assert.deepEqual(
    r.compound.composition?.map((c) => c.mole_fraction),
    [0.7812, 0.0092, 0.2096],
  );
  assert.match(r.heat_capacity.method, /Reference equation of state for air.*ideal-gas part/);
  assert.match(r.heat_capacity.source, /Lemmon/);
  // Cp°/R = 1 − τ²·∂²α⁰/∂τ², with ∂²α⁰/∂τ² = −5.66675499015 at τ = 132.6312/200 from an independent coding
  // of the paper (C. Bell's chemicals library, chemicals/air.py), R = 8.31451 J/(mol·K) as in the paper.
  const tau = 132.6312 / 200;
  const expected = 8.31451 * (1 + tau * tau * 5.66675499015);
  assert.ok(Math.abs(r.heat_capacity.value / expected - 1) < 1e-5, `${r.heat_capacity.value} vs ${expected}`);
});
