import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ABOUT } from '../../scripts/cubic-errors.ts';
import { cubicErrorTable, cubicRegion, GRID, REGIONS } from './cubic-errors.ts';
import committed from './data/cubic-errors.json' with { type: 'json' };
import { findCompound } from './lookup.ts';

test('data/cubic-errors.json is what the measurement gives now (else: npm run data:cubic-errors)', () => {
  assert.deepEqual(committed.equations, cubicErrorTable());
  assert.deepEqual(committed.grid, GRID);
  assert.deepEqual(committed.regions, REGIONS);
  assert.equal(committed.about, ABOUT);
});

test('regions: near-critical on both sides of Tc, subcritical liquid, compressed supercritical, the rest gas', () => {
  assert.equal(cubicRegion(1.02, 1.36, 'supercritical'), 'near_critical'); // CO2 at 310 K, 100 bar
  assert.equal(cubicRegion(0.95, 0.8, 'liquid'), 'near_critical');
  assert.equal(cubicRegion(0.6, 0.02, 'liquid'), 'liquid');
  assert.equal(cubicRegion(1.3, 1.1, 'supercritical'), 'dense_fluid');
  assert.equal(cubicRegion(0.85, 0.01, 'vapor'), 'gas');
  assert.equal(cubicRegion(1.5, 0.5, 'vapor'), 'gas');
});

test('the cubics are measured poorer in the dense and near-critical regions than in the gas, and Peng–Robinson better than van der Waals', () => {
  const pr = committed.equations.peng_robinson;
  for (const region of ['near_critical', 'liquid', 'dense_fluid'] as const) {
    assert.ok(pr[region].density.median_percent > pr.gas.density.median_percent, region);
    assert.ok(pr[region].fluids > 50, `${region}: ${pr[region].fluids} fluids`);
  }
  assert.ok(pr.liquid.density.median_percent < committed.equations.van_der_waals.liquid.density.median_percent);
});

test('the measurement uses what service_eos_state uses: a fluid with a reference equation, measured on its own', () => {
  const propane = cubicErrorTable([findCompound('propane').compound]);
  assert.equal(propane.peng_robinson.liquid?.fluids, 1);
  assert.ok(propane.peng_robinson.gas!.density.median_percent < propane.peng_robinson.liquid!.density.median_percent);
  assert.deepEqual(cubicErrorTable([findCompound('1-pentanol').compound]).peng_robinson, {});
});
