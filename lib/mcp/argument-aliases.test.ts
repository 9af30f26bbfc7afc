/**
 * One naming scheme for unit arguments across the tools (temperature_unit, pressure_unit), with the
 * other spellings read as aliases: an agent that guesses `unit` or `p_unit` is understood, one that gives
 * both names is told so, and the input schemas list only the canonical names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalArguments, registry } from './registry.ts';
import { runTool } from './run-tool.ts';

const UNIT_NAMES = new Set(['temperature_unit', 'pressure_unit', 'from_unit', 'to_unit']);

test('unit arguments are named temperature_unit / pressure_unit on every tool', () => {
  for (const { tool } of registry.values()) {
    const names = Object.keys((tool.inputSchema as { properties: object }).properties);
    for (const name of names.filter((n) => /unit/.test(n))) assert.ok(UNIT_NAMES.has(name), `${tool.name}: ${name}`);
    for (const [alias, canonical] of Object.entries(tool.argumentAliases ?? {})) {
      assert.ok(names.includes(canonical), `${tool.name}: alias ${alias} → ${canonical}, which it does not take`);
      assert.ok(!names.includes(alias), `${tool.name}: ${alias} is both an argument and an alias`);
    }
  }
});

test('aliases are renamed; a value given under two names is refused; anything else is left to the schema', () => {
  const aliases = { unit: 'temperature_unit', t_unit: 'temperature_unit' };
  assert.deepEqual(canonicalArguments({ temperature: 25, unit: '°C' }, aliases), {
    args: { temperature: 25, temperature_unit: '°C' },
  });
  const both = canonicalArguments({ unit: '°C', temperature_unit: 'K' }, aliases);
  assert.ok('conflict' in both && /"unit" and "temperature_unit" are the same argument/.test(both.conflict));
  const twoAliases = canonicalArguments({ t_unit: '°C', unit: 'K' }, aliases);
  assert.ok('conflict' in twoAliases && /"t_unit" and "unit"/.test(twoAliases.conflict));
  assert.deepEqual(canonicalArguments([1], aliases), { args: [1] });
  assert.deepEqual(canonicalArguments({ temperature: 1 }, undefined), { args: { temperature: 1 } });
});

/** An answer read by path (answer.state.conditions.pressure.value), every level a quantity or a branch. */
interface AnswerTree {
  readonly [key: string]: AnswerTree & { value: number };
}

const METHANE_ETHANE = [
  { compound_name: 'methane', mole_fraction: 0.5 },
  { compound_name: 'ethane', mole_fraction: 0.5 },
];

/**
 * Per tool with unit arguments: a call whose values are implausible in the default units (so a unit not
 * applied shows as a default-unit warning or a wrong value), the units under their canonical names, and
 * what the answer must show when they were applied.
 */
const UNIT_CALLS: {
  tool: string;
  args: Record<string, unknown>;
  units: Record<string, string>;
  applied: (answer: AnswerTree) => void | Promise<void>;
}[] = [
  {
    tool: 'service_vapor_pressure',
    args: { compound_name: 'ethanol', temperature: 25 },
    units: { temperature_unit: '°C' },
    applied: (a) => assert.ok(Math.abs(a.temperature.value - 298.15) < 1e-9),
  },
  {
    tool: 'service_liquid_density',
    args: { compound_name: 'ethanol', temperature: 25 },
    units: { temperature_unit: '°C' },
    applied: (a) => assert.ok(Math.abs(a.temperature.value - 298.15) < 1e-9),
  },
  {
    tool: 'service_ideal_gas_thermo',
    args: { compound_name: 'nitrogen', temperature: 200, reference_temperature: 25 },
    units: { temperature_unit: '°C' },
    applied: (a) => {
      assert.ok(Math.abs(a.temperature.value - 473.15) < 1e-9);
      assert.ok(Math.abs(a.reference_temperature.value - 298.15) < 1e-9, 'the unit holds for both temperatures');
    },
  },
  {
    tool: 'service_boiling_point',
    args: { compound_name: 'ethanol', pressure: 0.5 },
    units: { pressure_unit: 'bar' },
    applied: (a) => assert.equal(a.pressure.value, 5e4),
  },
  {
    tool: 'service_estimate_joback',
    args: { smiles: 'CC(C)=O', boiling_point: 56.05 },
    units: { temperature_unit: '°C' },
    applied: async (a) => {
      const kelvin = await runTool('service_estimate_joback', { smiles: 'CC(C)=O', boiling_point: 329.2 });
      assert.deepEqual(a.estimates.critical_temperature, JSON.parse(kelvin.valueJson!).estimates.critical_temperature);
    },
  },
  {
    tool: 'service_eos_state',
    args: { compound_name: 'methane', temperature: 25, pressure: 50, eos: 'peng_robinson' },
    units: { temperature_unit: '°C', pressure_unit: 'bar' },
    applied: (a) => assert.equal(a.conditions.pressure.value, 5e6),
  },
  {
    tool: 'service_mixture_properties',
    args: { components: METHANE_ETHANE, temperature: 25, pressure: 50 },
    units: { temperature_unit: '°C', pressure_unit: 'bar' },
    applied: (a) => assert.equal(a.state.conditions.pressure.value, 5e6),
  },
];

test('every tool with a unit argument answers the same under each alias as under the canonical name', async () => {
  const withUnits = [...registry.values()].filter(({ tool }) =>
    Object.keys((tool.inputSchema as { properties: object }).properties).some((n) =>
      /^(temperature|pressure)_unit$/.test(n),
    ),
  );
  assert.deepEqual(UNIT_CALLS.map((c) => c.tool).sort(), withUnits.map(({ tool }) => tool.name).sort());
  for (const { tool, args, units, applied } of UNIT_CALLS) {
    const meant = await runTool(tool, { ...args, ...units });
    assert.equal(meant.result.isError, false, `${tool}: ${JSON.stringify(meant.result.content)}`);
    assert.ok(!meant.valueJson!.includes('default unit'), `${tool}: the units were applied`);
    await applied(JSON.parse(meant.valueJson!));
    const aliases = Object.entries(registry.get(tool)?.tool.argumentAliases ?? {});
    for (const canonical of Object.keys(units)) {
      const spellings = aliases.filter(([, c]) => c === canonical).map(([alias]) => alias);
      assert.ok(spellings.length > 0, `${tool}: ${canonical} has aliases`);
      for (const alias of spellings) {
        const { [canonical]: unit, ...rest } = units;
        const aliased = await runTool(tool, { ...args, ...rest, [alias]: unit });
        assert.equal(aliased.valueJson, meant.valueJson, `${tool} ${alias}`);
        const twice = await runTool(tool, { ...args, ...units, [alias]: unit });
        assert.equal(twice.errorCode, 'invalid_arguments', `${tool} ${alias}`);
        const { message } = JSON.parse((twice.result.content[0] as { text: string }).text) as { message: string };
        const names = [`"${alias}" and "${canonical}"`, `"${canonical}" and "${alias}"`];
        assert.ok(
          names.some((n) => message.includes(`${n} are the same argument`)),
          message,
        );
      }
    }
    const both = Object.keys(units).length > 1;
    const bareUnit = aliases.some(([alias]) => alias === 'unit');
    // `unit` where it cannot mean two things; where a tool takes both units it stays unknown.
    assert.equal(bareUnit, !both, `${tool}: "unit" is an alias exactly when the tool has one unit argument`);
    if (both) assert.equal((await runTool(tool, { ...args, unit: 'bar' })).errorCode, 'invalid_arguments');
  }
});
