import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { CUBIC_EOS_IDS } from '../eos.ts';
import { ToolError } from '../tool.ts';
import { eosStateTool } from './eos-state.ts';
import { type MixturePropertiesArgs, mixturePropertiesTool } from './mixture-properties.ts';

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(mixturePropertiesTool.outputSchema);
const validateInput = ajv.compile(mixturePropertiesTool.inputSchema);

const methaneEthane = [
  { compound_name: 'methane', mole_fraction: 0.5 },
  { compound_name: 'ethane', mole_fraction: 0.5 },
];

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
  assert.equal(validateInput({ components: [methaneEthane[0]] }), false);
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

test("Kay's rule, 50/50 methane/ethane with the data's Tc and Pc: Tpc ≈ 247.9 K, Ppc ≈ 47.4 bar (issue 3; abs. tol. 0.05 K, 0.05 bar)", () => {
  const r = mixturePropertiesTool.run({ components: methaneEthane });
  assert.ok(Math.abs(r.pseudo_critical_temperature.value - 247.9) < 0.05, String(r.pseudo_critical_temperature.value));
  assert.ok(Math.abs(r.pseudo_critical_pressure_bar.value - 47.4) < 0.05, String(r.pseudo_critical_pressure_bar.value));
  assert.ok(Math.abs(r.pseudo_critical_pressure.value - r.pseudo_critical_pressure_bar.value * 1e5) < 1e-6);
  assert.ok(Math.abs(r.molar_mass.value - (16.043 + 30.069) / 2) < 1e-3, String(r.molar_mass.value));
  assert.ok(Math.abs(r.acentric_factor!.value - (0.011 + 0.099) / 2) < 1e-12);
  assert.match(r.pseudo_critical_temperature.source, /Kay/);
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
  const bad = structuredClone(mixturePropertiesTool.run(cases[0]));
  assert.ok(bad.state);
  bad.state.phases[0].components[0].fugacity.unit = 'bar';
  assert.equal(validateOutput(bad), false);
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
  assert.ok(
    Math.abs(mixVapor.components[0].fugacity_coefficient.value / pureVapor.fugacity_coefficient.value - 1) < 1e-7,
  );
  assert.ok(Math.abs(mixVapor.compressibility_factor.value - pureVapor.compressibility_factor.value) < 1e-7);
});

test('ideal-gas limit: at 1 Pa every component has φ → 1 and the mixture Z → 1', () => {
  const r = mixturePropertiesTool.run({ components: methaneEthane, temperature: 300, pressure: 1 });
  const [phase] = r.state!.phases;
  assert.ok(Math.abs(phase.compressibility_factor.value - 1) < 1e-6);
  for (const c of phase.components) {
    assert.ok(Math.abs(c.fugacity_coefficient.value - 1) < 1e-6);
    assert.ok(Math.abs(c.fugacity.value - c.mole_fraction) < 1e-6);
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
  assert.deepEqual(a.kij, [{ i: 0, j: 1, value: 0.05 }]);
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
