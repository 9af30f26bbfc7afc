/**
 * The analytic derivatives of α⁰ and αʳ (./terms.ts) against central finite differences of the
 * evaluator's own lower derivatives, for every reference fluid on hand and so every term type the
 * files use (Power, Exponential, Lemmon2005, DoubleExponential, Gaussian, GaoB, NonAnalytic; the ideal
 * lead, log τ, power, Planck–Einstein, generalized and cp° polynomial terms). A wrong sign or factor in
 * one derivative of one term type shows here even where no published check value reaches it.
 * Points: liquid-like, critical and gas-like states, δ ∈ {0.3, 1.2, 2.5}, τ ∈ {0.8, 1.1, 1.6}, plus
 * δ = 1.05, τ = 1.01 close to the critical point (where the non-analytic terms matter).
 * Step h = 1e-5·x (central difference: truncation error ∝ h², about 1e-10 relative here; rounding
 * about 1e-16/h = 1e-11). Agreement asked: 1e-6 relative to the larger of the derivative and the size of
 * the lower derivatives it is computed from. Second derivatives are differences of first ones, not of values.
 * (Checked beside this test on all 131 pure fluids of CoolProp ea27c639 too, including Ammonia's GaoB,
 * R125's Lemmon2005, Methanol's DoubleExponential and the Aly–Lee cp° terms: all agree.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { referenceFluids } from './fluids.ts';
import { ideal, residual } from './terms.ts';

const { fluids } = referenceFluids();

it('the shipped reference fluids are all here to check', () => {
  assert.ok(fluids.length >= 90, `${fluids.length} fluids`);
});

const POINTS: readonly (readonly [number, number])[] = [
  [0.3, 0.8],
  [0.3, 1.6],
  [1.2, 1.1],
  [2.5, 1.6],
  [2.5, 0.8],
  [1.05, 1.01],
];
const H = 1e-5;

/** |numeric − analytic| within 1e-6 of max(|analytic|, scale), naming what differs. */
function agree(numeric: number, analytic: number, scale: number, what: string): void {
  const tolerance = 1e-6 * Math.max(Math.abs(analytic), Math.abs(scale), 1e-3);
  assert.ok(Math.abs(numeric - analytic) <= tolerance, `${what}: analytic ${analytic}, numeric ${numeric}`);
}

describe('αʳ derivatives equal finite differences of αʳ and its first derivatives, every fluid', () => {
  for (const fluid of fluids) {
    it(fluid.name, () => {
      for (const [delta, tau] of POINTS) {
        const at = `${fluid.name} δ=${delta} τ=${tau}`;
        const c = residual(fluid.residual, delta, tau);
        const hd = H * delta;
        const ht = H * tau;
        const dp = residual(fluid.residual, delta + hd, tau);
        const dm = residual(fluid.residual, delta - hd, tau);
        const tp = residual(fluid.residual, delta, tau + ht);
        const tm = residual(fluid.residual, delta, tau - ht);
        const scale = Math.abs(c.a) + Math.abs(c.d) + Math.abs(c.t);
        agree((dp.a - dm.a) / (2 * hd), c.d, scale, `${at} αʳδ`);
        agree((tp.a - tm.a) / (2 * ht), c.t, scale, `${at} αʳτ`);
        agree((dp.d - dm.d) / (2 * hd), c.dd, scale, `${at} αʳδδ`);
        agree((tp.t - tm.t) / (2 * ht), c.tt, scale, `${at} αʳττ`);
        agree((tp.d - tm.d) / (2 * ht), c.dt, scale, `${at} αʳδτ (from αʳδ)`);
        agree((dp.t - dm.t) / (2 * hd), c.dt, scale, `${at} αʳδτ (from αʳτ)`);
      }
    });
  }
});

describe('α⁰ derivatives equal finite differences of α⁰ and α⁰τ, every fluid', () => {
  for (const fluid of fluids) {
    it(fluid.name, () => {
      for (const [delta, tau] of POINTS) {
        const at = `${fluid.name} δ=${delta} τ=${tau}`;
        const c = ideal(fluid.ideal, delta, tau);
        const ht = H * tau;
        const tp = ideal(fluid.ideal, delta, tau + ht);
        const tm = ideal(fluid.ideal, delta, tau - ht);
        const scale = Math.abs(c.a) + Math.abs(c.t);
        agree((tp.a - tm.a) / (2 * ht), c.t, scale, `${at} α⁰τ`);
        agree((tp.t - tm.t) / (2 * ht), c.tt, scale, `${at} α⁰ττ`);
        // α⁰ depends on δ only through ln δ.
        const hd = H * delta;
        const dp = ideal(fluid.ideal, delta + hd, tau);
        const dm = ideal(fluid.ideal, delta - hd, tau);
        agree((dp.a - dm.a) / (2 * hd), 1 / delta, 1 / delta, `${at} α⁰δ = 1/δ`);
      }
    });
  }
});
