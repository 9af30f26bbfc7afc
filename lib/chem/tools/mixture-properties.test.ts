import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { CUBIC_EOS_IDS } from '../eos.ts';
import { findCompound } from '../lookup.ts';
import { SIGNIFICANT_DIGITS } from '../precision.ts';
import { ToolError } from '../tool.ts';
import { eosStateTool } from './eos-state.ts';
import { type MixturePropertiesArgs, mixturePropertiesTool } from './mixture-properties.ts';

// Strict, to catch misspelt keywords; strictRequired off because groups of quantities name each one only in
// `required` (eos-shared.ts quantitiesObject), which the JSON Schema spec allows.
const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });
const validateOutput = ajv.compile(mixturePropertiesTool.outputSchema);
const validateInput = ajv.compile(mixturePropertiesTool.inputSchema);

const methaneEthane = [
  { compound_name: 'methane', mole_fraction: 0.5 },
  { compound_name: 'ethane', mole_fraction: 0.5 },
];

/** Significant digits of x as JSON writes it (101418 → 6, 0.0353659 → 6). */
const digitsOf = (x: number) => x.toExponential().split('e')[0].replace(/[-.]/g, '').length;

const rejects = (args: MixturePropertiesArgs, code: string, message: RegExp) =>
  assert.throws(
    () => mixturePropertiesTool.run(args),
    (e: unknown) => e instanceof ToolError && e.code === code && message.test(e.message),
  );

test('input schema is FastMCP style and constrains the composition', () => {
  const schema = argumentsSchema(mixturePropertiesTool);
  assert.equal(schema.title, 'service_mixture_propertiesArguments');
  assert.deepEqual(schema.required, ['components']);
  for (const [name, property] of Object.entries(schema.properties))
    assert.ok(property.title && property.description, name);
  assert.ok(
    validateInput({
      components: methaneEthane,
      temperature: 300,
      pressure: 1e5,
      eos: 'srk',
      kij: [{ i: 0, j: 1, value: 0.003 }],
    }),
  );
  // One component passes the schema ("air" alone is N2, Ar and O2); run() refuses one compound.
  assert.ok(validateInput({ components: [{ compound_name: 'air', mole_fraction: 1 }] }));
  assert.equal(validateInput({ components: [] }), false);
  assert.equal(validateInput({ components: Array.from({ length: 21 }, () => methaneEthane[0]) }), false);
  assert.equal(
    validateInput({ components: [{ compound_name: 'methane', mole_fraction: 0 }, methaneEthane[1]] }),
    false,
  );
  assert.equal(
    validateInput({ components: [{ compound_name: 'methane', mole_fraction: 1.2 }, methaneEthane[1]] }),
    false,
  );
  assert.equal(
    validateInput({
      components: methaneEthane,
      kij: [
        [0, 0.1],
        [0.1, 0],
      ],
    }),
    false,
  );
  assert.equal(validateInput({ components: methaneEthane, kij: [{ i: 0, j: 1, value: 2 }] }), false);
});

test("Kay's rule, its example 50/50 methane/ethane with the data's Tc and Pc: Tpc ≈ 247.9 K, Ppc ≈ 47.4 bar (abs. tol. 0.05 K, 0.05 bar)", () => {
  assert.deepEqual(mixturePropertiesTool.example, { components: methaneEthane });
  const r = mixturePropertiesTool.run(mixturePropertiesTool.example);
  assert.ok(Math.abs(r.pseudo_critical_temperature.value - 247.9) < 0.05, String(r.pseudo_critical_temperature.value));
  assert.ok(Math.abs(r.pseudo_critical_pressure_bar.value - 47.4) < 0.05, String(r.pseudo_critical_pressure_bar.value));
  assert.equal(r.pseudo_critical_pressure.value, r.pseudo_critical_pressure_bar.value * 1e5);
  assert.equal(r.pseudo_critical_pressure.unit, 'Pa');
  assert.equal(r.pseudo_critical_pressure_bar.unit, 'bar');
  assert.ok(Math.abs(r.molar_mass.value - (16.043 + 30.069) / 2) < 1e-3, String(r.molar_mass.value));
  assert.equal(r.acentric_factor!.value, (0.011 + 0.099) / 2);
  assert.match(r.pseudo_critical_temperature.source, /Kay/);
  assert.match(r.pseudo_critical_temperature.note ?? '', /not the mixture's critical point/);
  // The query is repeated only where it is not the name it was read as.
  assert.deepEqual(
    r.components.map((c) => c.query),
    [undefined, undefined],
  );
  const byFormula = mixturePropertiesTool.run({
    components: [{ compound_name: 'CH4', mole_fraction: 0.5 }, methaneEthane[1]],
  });
  assert.deepEqual(
    byFormula.components.map((c) => [c.query, c.name]),
    [
      ['CH4', 'methane'],
      [undefined, 'ethane'],
    ],
  );
  assert.equal(r.state, undefined);
  assert.ok(validateOutput(r), ajv.errorsText(validateOutput.errors));
});

test('results validate against the output schema: every equation, gas, liquid, three roots, kij', () => {
  const cases: MixturePropertiesArgs[] = [
    {
      components: methaneEthane,
      temperature: 300,
      pressure: 50,
      pressure_unit: 'bar',
      kij: [{ i: 1, j: 0, value: 0.003 }],
    },
    {
      components: [
        { compound_name: 'propane', mole_fraction: 0.5 },
        { compound_name: 'n-butane', mole_fraction: 0.5 },
      ],
      temperature: 300,
      pressure: 1e5,
    },
    {
      components: [
        { compound_name: 'propane', mole_fraction: 0.5 },
        { compound_name: 'n-butane', mole_fraction: 0.5 },
      ],
      temperature: 300,
      pressure: 50,
      pressure_unit: 'bar',
    },
    {
      components: [
        { compound_name: 'nitrogen', mole_fraction: 0.7808 },
        { compound_name: 'oxygen', mole_fraction: 0.2095 },
        { compound_name: 'argon', mole_fraction: 0.0097 },
      ],
      temperature: 25,
      temperature_unit: 'C',
      pressure: 1,
      pressure_unit: 'atm',
    },
  ];
  for (const args of cases) {
    for (const eos of CUBIC_EOS_IDS) {
      const r = mixturePropertiesTool.run({ ...args, eos });
      assert.ok(
        validateOutput(r),
        `${JSON.stringify(args.components)} ${eos}: ${ajv.errorsText(validateOutput.errors)}`,
      );
      assert.ok(r.state);
    }
  }
  // Broken on purpose: a value without its unit, and a component field the contract lacks.
  const bad = structuredClone(mixturePropertiesTool.run(cases[0]));
  assert.ok(bad.state);
  const fugacity: { unit?: string } = bad.state.phases[0].components[0].fugacity;
  delete fugacity.unit;
  assert.equal(validateOutput(bad), false);
  const extra = structuredClone(mixturePropertiesTool.run(cases[0]));
  (extra.state!.phases[0].components[0] as unknown as Record<string, unknown>).activity = 1;
  assert.equal(validateOutput(extra), false);
});

test('answers give each value in its unit', () => {
  const r = mixturePropertiesTool.run({ components: methaneEthane, temperature: 300, pressure: 5e6 });
  assert.deepEqual(
    [r.molar_mass, r.pseudo_critical_temperature, r.pseudo_critical_pressure, r.acentric_factor!].map((q) => q.unit),
    ['g/mol', 'K', 'Pa', ''],
  );
  for (const c of r.components) {
    assert.equal(c.molecular_weight.unit, 'g/mol');
    assert.deepEqual(
      Object.values(c.inputs).map((q) => q.unit),
      ['K', 'Pa', ''],
    );
  }
  const state = r.state!;
  assert.deepEqual(
    Object.values(state.conditions).map((q) => q.unit),
    ['K', 'Pa'],
  );
  for (const phase of state.phases) {
    assert.deepEqual(
      [phase.compressibility_factor, phase.molar_volume, phase.density].map((q) => q.unit),
      ['', 'm3/mol', 'kg/m3'],
    );
    for (const c of phase.components) assert.deepEqual([c.fugacity_coefficient.unit, c.fugacity.unit], ['', 'Pa']);
  }
});

test("values keep the digits their method supports: Kay's rule 4, the cubic 4, pseudo-reduced T and P 4", () => {
  const r = mixturePropertiesTool.run({
    components: [
      { compound_name: 'nitrogen', mole_fraction: 0.7808 },
      { compound_name: 'oxygen', mole_fraction: 0.2095 },
      { compound_name: 'argon', mole_fraction: 0.0097 },
    ],
    temperature: 298.15,
    pressure: 101325,
  });
  for (const q of [r.pseudo_critical_temperature, r.pseudo_critical_pressure, r.acentric_factor!])
    assert.ok(digitsOf(q.value) <= SIGNIFICANT_DIGITS.correlation, `${q.method}: ${q.value}`);
  const state = r.state!;
  const cubic = [
    ...state.z_roots,
    ...state.phases.flatMap((p) => [
      p.compressibility_factor.value,
      p.molar_volume.value,
      p.density.value,
      ...p.components.flatMap((c) => [c.fugacity_coefficient.value, c.fugacity.value]),
    ]),
  ];
  for (const value of cubic) assert.ok(digitsOf(value) <= SIGNIFICANT_DIGITS.cubicEquation, `${value}`);
  for (const ratio of [state.pseudo_reduced_temperature, state.pseudo_reduced_pressure])
    assert.ok(digitsOf(ratio.value) <= 4, `${ratio.value}`);
  // The molar mass is exact arithmetic on formula masses: not cut to a method's digits.
  const m = (name: string) => findCompound(name).compound.properties.molecular_weight!.value;
  assert.equal(r.molar_mass.value, 0.7808 * m('nitrogen') + 0.2095 * m('oxygen') + 0.0097 * m('argon'));
  assert.ok(digitsOf(r.molar_mass.value) > SIGNIFICANT_DIGITS.correlation);
});

test('a mixture of one compound with itself under another name is refused; the x = 1 limit equals service_eos_state', () => {
  rejects(
    {
      components: [
        { compound_name: 'ethanol', mole_fraction: 0.5 },
        { compound_name: 'EtOH', mole_fraction: 0.5 },
      ],
    },
    'invalid_arguments',
    /both ethanol/,
  );
  // Nearly pure propane: the component's φ tends to the pure-fluid φ of service_eos_state.
  const pure = eosStateTool.run({
    eos: 'peng_robinson',
    compound_name: 'propane',
    temperature: 350,
    pressure: 5,
    pressure_unit: 'bar',
  });
  const mix = mixturePropertiesTool.run({
    components: [
      { compound_name: 'propane', mole_fraction: 1 - 1e-9 },
      { compound_name: 'n-butane', mole_fraction: 1e-9 },
    ],
    temperature: 350,
    pressure: 5,
    pressure_unit: 'bar',
  });
  const pureVapor = pure.phases.find((p) => p.phase === 'vapor')!;
  const mixVapor = mix.state!.phases.find((p) => p.phase === 'vapor')!;
  // Both served at the cubic's 4 digits: equal there.
  assert.equal(mixVapor.components[0].fugacity_coefficient.value, pureVapor.fugacity_coefficient.value);
  assert.equal(mixVapor.compressibility_factor.value, pureVapor.compressibility_factor.value);
});

test('ideal-gas limit: at 1 Pa every component has φ → 1 and the mixture Z → 1', () => {
  const r = mixturePropertiesTool.run({ components: methaneEthane, temperature: 300, pressure: 1 });
  const [phase] = r.state!.phases;
  assert.ok(Math.abs(phase.compressibility_factor.value - 1) < 1e-6);
  for (const c of phase.components) {
    assert.ok(Math.abs(c.fugacity_coefficient.value - 1) < 1e-6);
    assert.ok(Math.abs(c.fugacity.value - 0.5) < 1e-6);
  }
  assert.ok(Math.abs(phase.density.value - (23.056e-3 * 1) / (8.314462618 * 300)) < 1e-8);
});

test('kij changes the state, and i/j order does not matter', () => {
  const base = { components: methaneEthane, temperature: 250, pressure: 40, pressure_unit: 'bar' };
  const none = mixturePropertiesTool.run(base).state!;
  const a = mixturePropertiesTool.run({ ...base, kij: [{ i: 0, j: 1, value: 0.05 }] }).state!;
  const b = mixturePropertiesTool.run({ ...base, kij: [{ i: 1, j: 0, value: 0.05 }] }).state!;
  assert.notEqual(a.z_roots.at(-1), none.z_roots.at(-1));
  assert.deepEqual(a.z_roots, b.z_roots);
  // The kij used, by name, whichever order the pair was given in.
  assert.match(a.mixing_rules, /; kij: methane–ethane 0\.05, other pairs 0$/);
  assert.equal(b.mixing_rules, a.mixing_rules);
  assert.match(none.mixing_rules, /; kij = 0 for every pair$/);
});

test('three roots: both candidates reported, the label says "-like", and the warnings say no flash is done', () => {
  const r = mixturePropertiesTool.run({
    components: [
      { compound_name: 'propane', mole_fraction: 0.5 },
      { compound_name: 'n-butane', mole_fraction: 0.5 },
    ],
    temperature: 300,
    pressure: 1,
    pressure_unit: 'bar',
  });
  assert.equal(r.state!.phases.length, 2);
  assert.equal(r.state!.phase, 'vapor-like');
  assert.deepEqual(
    r.state!.phases.map((p) => [p.phase, p.lower_gibbs_energy]),
    [
      ['liquid', false],
      ['vapor', true],
    ],
  );
  assert.match(r.warnings.join(' '), /no flash/);
});

test('bad inputs give the right ToolError', () => {
  rejects(
    {
      components: [
        { compound_name: 'methane', mole_fraction: 0.5 },
        { compound_name: 'ethane', mole_fraction: 0.4 },
      ],
    },
    'invalid_arguments',
    /sum to 0\.9;/,
  );
  rejects(
    {
      components: [
        { compound_name: 'methane', mole_fraction: 0.6 },
        { compound_name: 'ethane', mole_fraction: 0.6 },
      ],
    },
    'invalid_arguments',
    /sum to 1\.2;/,
  );
  rejects(
    {
      components: [
        { compound_name: 'methane', mole_fraction: 0.5 },
        { compound_name: 'methane', mole_fraction: 0.5 },
      ],
    },
    'invalid_arguments',
    /both methane/,
  );
  rejects(
    {
      components: [
        { compound_name: 'methane', mole_fraction: 0.5 },
        { compound_name: 'unobtainium', mole_fraction: 0.5 },
      ],
    },
    'compound_not_found',
    /unobtainium/,
  );
  rejects({ components: methaneEthane, temperature: 300 }, 'invalid_arguments', /both temperature and pressure/);
  rejects({ components: methaneEthane, kij: [{ i: 0, j: 1, value: 0.01 }] }, 'invalid_arguments', /kij only affects/);
  rejects(
    { components: methaneEthane, temperature: 300, pressure: 1e5, kij: [{ i: 0, j: 2, value: 0.01 }] },
    'invalid_arguments',
    /0 to 1 here/,
  );
  rejects(
    { components: methaneEthane, temperature: 300, pressure: 1e5, kij: [{ i: 1, j: 1, value: 0.01 }] },
    'invalid_arguments',
    /must differ/,
  );
  rejects(
    {
      components: methaneEthane,
      temperature: 300,
      pressure: 1e5,
      kij: [
        { i: 0, j: 1, value: 0.01 },
        { i: 1, j: 0, value: 0.02 },
      ],
    },
    'invalid_arguments',
    /more than once/,
  );
  const helium = [
    { compound_name: 'helium', mole_fraction: 0.5 },
    { compound_name: 'nitrogen', mole_fraction: 0.5 },
  ];
  rejects({ components: helium, temperature: 300, pressure: 1e5 }, 'missing_data', /helium.*acentric_factor/);
  const noState = mixturePropertiesTool.run({ components: helium });
  assert.equal(noState.acentric_factor, undefined);
  assert.match(noState.warnings.join(' '), /No mixture acentric factor.*helium/);
  assert.ok(validateOutput(noState));
  assert.ok(
    validateOutput(
      mixturePropertiesTool.run({ components: helium, temperature: 300, pressure: 1e5, eos: 'redlich_kwong' }),
    ),
  );
  rejects(
    { components: methaneEthane, temperature: 300, pressure: 1, pressure_unit: 'psig' },
    'unsupported_unit',
    /gauge/,
  );
  rejects(
    { components: methaneEthane, temperature: -500, temperature_unit: '°F', pressure: 1e5 },
    'out_of_range',
    /absolute zero/,
  );
});

test('"air" as a component is the composition of Lemmon et al. (2000)’s air, and the answer says so', () => {
  const r = mixturePropertiesTool.run({ components: [{ compound_name: 'air', mole_fraction: 1 }] });
  assert.ok(validateOutput(r), JSON.stringify(validateOutput.errors));
  assert.deepEqual(
    r.components.map((c) => [c.query, c.name, c.mole_fraction]),
    [
      ['air', 'nitrogen', 0.7812],
      ['air', 'argon', 0.0092],
      ['air', 'oxygen', 0.2096],
    ],
  );
  assert.match(
    r.warnings[0],
    /"air" \(x = 1\) is taken as the air of Lemmon et al\. \(2000\): nitrogen 0\.7812, argon 0\.0092, oxygen 0\.2096 \(mole fractions; REFPROP manual/,
  );
  // Σ x·M with 2021 atomic weights, within 3e-4 g/mol of the equation's 28.9586.
  assert.ok(Math.abs(r.molar_mass.value - 28.9586) < 3e-4, `${r.molar_mass.value}`);
});

test('air plus one of its compounds adds up (enriched air); one compound alone is refused', () => {
  const r = mixturePropertiesTool.run({
    components: [
      { compound_name: 'Air', mole_fraction: 0.9 },
      { compound_name: 'oxygen', mole_fraction: 0.1 },
    ],
    temperature: 300,
    pressure: 1e5,
  });
  const oxygen = r.components.find((c) => c.name === 'oxygen')!;
  assert.ok(Math.abs(oxygen.mole_fraction - (0.9 * 0.2096 + 0.1)) < 1e-12);
  assert.equal(r.components.length, 3);
  rejects(
    { components: [{ compound_name: 'nitrogen', mole_fraction: 1 }] },
    'invalid_arguments',
    /got 1 \(for one compound, use service_eos_state\)/,
  );
  // Two explicit entries of one compound are still refused.
  rejects(
    {
      components: [
        { compound_name: 'methane', mole_fraction: 0.5 },
        { compound_name: 'CH4', mole_fraction: 0.5 },
      ],
    },
    'invalid_arguments',
    /are both methane/,
  );
});

test('another mixture name as a component is is_mixture, with its composition to pass instead', () => {
  rejects(
    { components: [{ compound_name: 'R-410A', mole_fraction: 0.5 }, methaneEthane[1]] },
    'is_mixture',
    /difluoromethane 0\.69761, pentafluoroethane 0\.30239/,
  );
});
