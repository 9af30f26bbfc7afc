/**
 * No silent unit traps: a value implausible in the unit it defaulted to (pressure 60 read as Pa, temperature
 * 25 read as K) gets a warning naming the unit it more likely meant and the argument that says so; a unit
 * given explicitly, or a plausible value, gets none.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolError } from '../tool.ts';
import { boilingPointTool } from './boiling-point.ts';
import { defaultUnitWarning, withUnitTrap } from './computed-value.ts';
import { eosStateTool } from './eos-state.ts';
import { idealGasThermoTool } from './ideal-gas-thermo.ts';
import { liquidDensityTool } from './liquid-density.ts';
import { mixturePropertiesTool } from './mixture-properties.ts';
import { vaporPressureTool } from './vapor-pressure.ts';

const PRESSURE_TRAP = /^pressure 60 was read in the default unit, Pa: .*If you meant 60 bar.*pass pressure_unit: "bar"/;

test('eos_state: CO2 at 300 K and pressure 60 (Pa by default) warns that 60 bar was likely meant', () => {
  for (const eos of ['peng_robinson', undefined] as const) {
    const state = eosStateTool.run({ compound_name: 'CO2', temperature: 300, pressure: 60, eos });
    assert.match(state.warnings[0], PRESSURE_TRAP, String(eos));
    const meant = eosStateTool.run({ compound_name: 'CO2', temperature: 300, pressure: 60, pressure_unit: 'bar', eos });
    assert.ok(!meant.warnings.some((w) => /default unit/.test(w)), String(eos));
  }
  const plausible = eosStateTool.run({ compound_name: 'CO2', temperature: 300, pressure: 101325 });
  assert.ok(!plausible.warnings.some((w) => /default unit/.test(w)));
});

test('boiling_point: ethanol at pressure 0.5 (Pa by default) warns on the temperature it gives', () => {
  const answer = boilingPointTool.run({ compound_name: 'ethanol', pressure: 0.5 });
  assert.match(
    answer.boiling_point.warnings?.[0] ?? '',
    /^pressure 0\.5 was read in the default unit, Pa: .*pass pressure_unit: "bar"/,
  );
  const given = boilingPointTool.run({ compound_name: 'ethanol', pressure: 0.5, pressure_unit: 'bar' });
  assert.ok(!(given.boiling_point.warnings ?? []).some((w) => /default unit/.test(w)));
});

test('vapor_pressure and liquid_density: temperature 25 (K by default), outside every method’s range, is refused saying 25 °C was likely meant', () => {
  // Said once: the refusal's own "did you mean" is not followed by the default-unit trap's same advice.
  const once = (message: string) =>
    /did you mean 25 °C \(298\.15 K\)\? Then pass temperature_unit "°C"\.$/.test(message) &&
    message.match(/25 °C/g)?.length === 1;
  for (const run of [
    () => vaporPressureTool.run({ compound_name: 'ethanol', temperature: 25 }),
    () => liquidDensityTool.run({ compound_name: 'ethanol', temperature: 25 }),
  ])
    assert.throws(run, (e: unknown) => e instanceof ToolError && e.code === 'out_of_range' && once(e.message));
  // An answered value still carries the trap first: methane at 90 K, just below its melting point (90.69 K).
  assert.match(
    vaporPressureTool.run({ compound_name: 'methane', temperature: 90 }).vapor_pressure.warnings?.[0] ?? '',
    /^temperature 90 was read in the default unit, K: below the melting point/,
  );
  const celsius = liquidDensityTool.run({ compound_name: 'ethanol', temperature: 25, temperature_unit: '°C' });
  assert.ok(!(celsius.liquid_density.warnings ?? []).some((w) => /default unit/.test(w)));
  const kelvin = vaporPressureTool.run({ compound_name: 'ethanol', temperature: 298.15 });
  assert.ok(!(kelvin.vapor_pressure.warnings ?? []).some((w) => /default unit/.test(w)));
});

test('a refused computation carries the trap in its error message', () => {
  const trap = defaultUnitWarning('temperature', 5, undefined);
  assert.match(trap ?? '', /under 20 K/);
  assert.throws(
    () =>
      withUnitTrap(trap, () => {
        throw new ToolError('out_of_range', '5 K is below the equation’s range.');
      }),
    (e: unknown) =>
      e instanceof ToolError &&
      e.code === 'out_of_range' &&
      /below the equation’s range\. \(temperature 5 was read/.test(e.message),
  );
  assert.equal(defaultUnitWarning('pressure', 60, 'Pa'), undefined, 'a unit given is taken as meant');
});

test('ideal_gas_thermo and mixture_properties warn the same way', async () => {
  // Helium's reference equation holds from 2.18 K: 15 K is answered, with the trap.
  const thermo = await idealGasThermoTool.run({ compound_name: 'helium', temperature: 15 });
  assert.match(thermo.heat_capacity.warnings?.[0] ?? '', /^temperature 15 was read in the default unit, K: under 20 K/);
  await assert.rejects(
    idealGasThermoTool.run({ compound_name: 'nitrogen', temperature: 10 }),
    (e: unknown) => e instanceof ToolError && e.code === 'out_of_range' && /did you mean 10 °C/.test(e.message),
  );
  const mixture = mixturePropertiesTool.run({
    components: [
      { compound_name: 'methane', mole_fraction: 0.5 },
      { compound_name: 'ethane', mole_fraction: 0.5 },
    ],
    temperature: 300,
    pressure: 50,
  });
  assert.match(mixture.warnings[0], /^pressure 50 was read in the default unit, Pa: .*pass pressure_unit: "bar"/);
});
