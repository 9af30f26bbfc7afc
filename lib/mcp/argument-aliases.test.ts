/**
 * One naming scheme for unit arguments across the tools (temperature_unit, pressure_unit), with the
 * other spellings read as aliases: an agent that guesses `unit` or `p_unit` is understood, one that gives
 * both names is told so, and the input schemas list only the canonical names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTool } from './call-tool.ts';
import { canonicalArguments, registry } from './registry.ts';

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

test('every tool with a unit argument answers the same under an alias as under the canonical name', async () => {
  const calls: [string, Record<string, unknown>, string, string][] = [
    ['service_vapor_pressure', { compound_name: 'water', temperature: 80 }, 'temperature_unit', '°C'],
    ['service_liquid_density', { compound_name: 'water', temperature: 80 }, 'temperature_unit', '°C'],
    ['service_ideal_gas_thermo', { compound_name: 'nitrogen', temperature: 200 }, 'temperature_unit', '°C'],
    ['service_boiling_point', { compound_name: 'water', pressure: 2 }, 'pressure_unit', 'bar'],
  ];
  for (const [name, base, canonical, unit] of calls) {
    const aliases = registry.get(name)?.tool.argumentAliases ?? {};
    const meant = await callTool(name, { ...base, [canonical]: unit });
    assert.equal(meant.result.isError, false, `${name}: ${JSON.stringify(meant.result.content)}`);
    const spellings = Object.entries(aliases).filter(([, c]) => c === canonical);
    assert.ok(
      spellings.some(([alias]) => alias === 'unit'),
      `${name} accepts "unit"`,
    );
    for (const [alias] of spellings) {
      const aliased = await callTool(name, { ...base, [alias]: unit });
      assert.equal(aliased.valueJson, meant.valueJson, `${name} ${alias}`);
    }
    const twice = await callTool(name, { ...base, unit, [canonical]: unit });
    assert.equal(twice.errorCode, 'invalid_arguments', name);
  }
  for (const name of ['service_eos_state', 'service_mixture_properties']) {
    const aliases = registry.get(name)?.tool.argumentAliases ?? {};
    assert.equal(aliases.p_unit, 'pressure_unit', name);
    assert.equal(aliases.unit, undefined, `${name}: "unit" would be ambiguous there`);
  }
});
