/**
 * The pseudo-pure fluid air (CoolProp's Air.json: E. W. Lemmon et al., J. Phys. Chem. Ref. Data 29 (2000)
 * 331): read from its file, evaluated like a pure fluid in one phase, and never given a saturation state.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ancillaryValue } from './fluid-file.ts';
import { referenceFluidFile } from './fluids.ts';
import { densityAt, pseudoPurePhase, saturationAtPressure, saturationAtTemperature, stateAt } from './state.ts';
import { ideal, residual } from './terms.ts';

const air = referenceFluidFile('Air.json')?.fluid;
const skip = air ? false : 'no Air.json in the reference-fluid folder';

describe('air, a pseudo-pure fluid', { skip }, () => {
  const fluid = () => air!;

  it('is read with its bubble- and dew-point equations and maxcondentherm, without a vapour-pressure equation', () => {
    const bounds = fluid().pseudoPure!;
    assert.equal(fluid().ancillaries.pressure, undefined);
    assert.equal(bounds.bubblePressure.type, 'pL');
    assert.equal(bounds.dewPressure.type, 'pV');
    // The maxcondentherm is the equation's reducing temperature (Lemmon et al. 2000).
    assert.equal(bounds.maxcondentherm.temperature, fluid().reducing.temperature);
    assert.ok(fluid().critical.temperature < bounds.maxcondentherm.temperature);
    assert.ok(bounds.maxcondenbar.pressure > fluid().critical.pressure);
    assert.match(fluid().citation, /Lemmon.*Thermodynamic Properties of Air/);
  });

  it('its terms are Lemmon et al.’s: αʳ and α⁰ derivatives agree with an independent coding of the paper', () => {
    // C. Bell's chemicals library, chemicals/air.py (MIT), lemmon2000_air_* docstring values at
    // τ = 132.6312/200, δ = 13000/10447.7; its α⁰ lacks CoolProp's reference-state offset a1 + a2·τ.
    const tau = 132.6312 / 200;
    const delta = 13000 / 10447.7;
    const r = residual(fluid().residual, delta, tau);
    const o = ideal(fluid().ideal, delta, tau);
    const close = (actual: number, expected: number, what: string) =>
      assert.ok(Math.abs(actual / expected - 1) < 1e-10, `${what}: ${actual} vs ${expected}`);
    close(r.a, -0.34683017661, 'αʳ');
    close(r.t, -1.8112257495223263, '∂αʳ/∂τ');
    close(r.tt, -0.7632109061747537, '∂²αʳ/∂τ²');
    close(o.tt, -5.66675499015, '∂²α⁰/∂τ²');
  });

  it('has no saturation line: both saturation solvers refuse it, saying why', () => {
    const why = /mixture described as a pseudo-pure fluid: it has no saturation line and no vapour pressure/;
    assert.throws(() => saturationAtTemperature(fluid(), 100), why);
    assert.throws(() => saturationAtPressure(fluid(), 101325), why);
  });

  it('below the maxcondentherm: vapour under the dew-point pressure, liquid over the bubble point, refused between', () => {
    const t = 100;
    const dew = ancillaryValue(fluid().pseudoPure!.dewPressure, t);
    const bubble = ancillaryValue(fluid().pseudoPure!.bubblePressure, t);
    assert.ok(dew < bubble, `${dew} < ${bubble}`);
    assert.equal(pseudoPurePhase(fluid(), t, 0.99 * dew).phase, 'vapor');
    assert.equal(pseudoPurePhase(fluid(), t, 1.01 * bubble).phase, 'liquid');
    assert.throws(() => pseudoPurePhase(fluid(), t, (dew + bubble) / 2), /inside the two-phase region of Air/);
    assert.throws(() => densityAt(fluid(), t, (dew + bubble) / 2), /two-phase region/);
    // Above the maxcondentherm there is no two-phase region.
    assert.deepEqual(pseudoPurePhase(fluid(), 300, 1e5), { phase: 'vapor' });
    assert.deepEqual(pseudoPurePhase(fluid(), 200, 10e6), { phase: 'supercritical' });
  });

  it('densities solve p(ρ, T) = p in each phase, the liquid far denser than the vapour', () => {
    for (const [t, p] of [
      [300, 1e5],
      [100, 1e5],
      [100, 5e6],
      [78, 101325],
      [140, 5e6],
      [1000, 100e6],
    ] as const) {
      const rho = densityAt(fluid(), t, p);
      const state = stateAt(fluid(), t, rho);
      assert.ok(Math.abs(state.pressure / p - 1) < 1e-9, `${t} K, ${p} Pa: p(ρ) = ${state.pressure}`);
    }
    assert.ok(densityAt(fluid(), 100, 5e6) > 100 * densityAt(fluid(), 100, 1e5));
    // At 300 K and 1 bar air is nearly ideal: Z just under 1 (a negative second virial coefficient).
    const z = stateAt(fluid(), 300, densityAt(fluid(), 300, 1e5)).compressibility;
    assert.ok(z > 0.999 && z < 1, `Z = ${z}`);
  });
});
