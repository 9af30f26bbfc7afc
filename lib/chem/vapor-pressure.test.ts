import assert from 'node:assert/strict';
import { it } from 'node:test';
import { brentRoot } from './brent.ts';
import {
  ambroseWaltonPressure,
  antoinePressure,
  antoineTemperature,
  leeKeslerPressure,
  leeKeslerTemperature,
  wagnerPressure,
  wagnerTemperature,
} from './vapor-pressure.ts';

// Water, NIST WebBook Antoine parameters (Bridgeman & Aldrich 1964, 344–373 K): at 373.15 K the
// equation gives the normal boiling pressure, 101.325 kPa, to within 0.01 kPa.
const WATER_ANTOINE = { A: 5.08354, B: 1663.125, C: -45.622 };

it('Antoine: water at 373.15 K is 101.33 kPa (±0.01 kPa), and the inverse returns the temperature', () => {
  const p = antoinePressure(WATER_ANTOINE, 373.15);
  assert.ok(Math.abs(p - 101_330) < 10, `got ${p} Pa`);
  assert.ok(Math.abs(antoineTemperature(WATER_ANTOINE, p) - 373.15) < 1e-9);
  assert.ok(Math.abs(antoineTemperature(WATER_ANTOINE, 101_325) - 373.15) < 0.01);
});

// Methane, Poling et al. 5th ed. Wagner (2.5-5) coefficients at 100 K: 34415.0 Pa (the same worked
// example as the chemicals library's Wagner function), ±0.05 Pa.
const METHANE_WAGNER = { a: -6.02242, b: 1.26652, c: -0.5707, d: -1.366 };

it('Wagner: methane at 100 K is 34415.0 Pa; Pc at Tc; the inverse returns the temperature', () => {
  const p = wagnerPressure(METHANE_WAGNER, 190.551, 4_599_200, 100);
  assert.ok(Math.abs(p - 34_415.0) < 0.05, `got ${p} Pa`);
  assert.equal(wagnerPressure(METHANE_WAGNER, 190.551, 4_599_200, 190.551), 4_599_200);
  assert.ok(Math.abs(wagnerTemperature(METHANE_WAGNER, 190.551, 4_599_200, p) - 100) < 1e-6);
  assert.ok(Math.abs(wagnerTemperature(METHANE_WAGNER, 190.551, 4_599_200, 4_599_200) - 190.551) < 1e-6);
  assert.throws(() => wagnerPressure(METHANE_WAGNER, 190.551, 4_599_200, 191), RangeError);
  assert.throws(() => wagnerTemperature(METHANE_WAGNER, 190.551, 4_599_200, 5e6), RangeError);
});

// Reid, Prausnitz & Poling 4th ed., Example 7-2: ethylbenzene, 617.1 K, 36 bar,
// ω 0.299, at 347.2 K → 13.08 kPa (±0.05 kPa).
it('Lee–Kesler: ethylbenzene at 347.2 K is 13.08 kPa, and the inverse returns 347.2 K', () => {
  const p = leeKeslerPressure(617.1, 36e5, 0.299, 347.2);
  assert.ok(Math.abs(p - 13_080) < 50, `got ${p} Pa`);
  assert.ok(Math.abs(leeKeslerTemperature(617.1, 36e5, 0.299, p) - 347.2) < 1e-6);
});

// Poling et al. 5th ed., Example 7-2: ethylbenzene, 617.15 K, 36.09 bar, ω 0.304, at 347.25 K →
// 13.28 kPa (±0.05 kPa).
it('Ambrose–Walton: ethylbenzene at 347.25 K is 13.28 kPa, and exactly Pc at Tc', () => {
  const p = ambroseWaltonPressure(617.15, 36.09e5, 0.304, 347.25);
  assert.ok(Math.abs(p - 13_280) < 50, `got ${p} Pa`);
  assert.equal(ambroseWaltonPressure(617.15, 36.09e5, 0.304, 617.15), 36.09e5);
});

// Both generalized correlations honour the definition of ω they are built on:
// log10(P/Pc) = −1 − ω at Tr = 0.7 (to 1e-4 in log10 over ω 0–0.6).
it('Lee–Kesler and Ambrose–Walton reproduce the acentric-factor definition at Tr = 0.7', () => {
  for (const omega of [0, 0.1, 0.3, 0.6]) {
    for (const f of [leeKeslerPressure, ambroseWaltonPressure]) {
      const log10Pr = Math.log10(f(500, 40e5, omega, 350) / 40e5);
      assert.ok(Math.abs(log10Pr - (-1 - omega)) < 1e-4, `${f.name} ω=${omega}: log10 Pr(0.7) = ${log10Pr}`);
    }
  }
});

it('brentRoot finds a bracketed root and refuses an unbracketed one', () => {
  assert.ok(Math.abs(brentRoot((x) => x * x - 2, 0, 2) - Math.SQRT2) < 1e-10);
  assert.ok(Math.abs(brentRoot((x) => Math.cos(x) - x, 0, 1) - 0.7390851332151607) < 1e-10);
  assert.throws(() => brentRoot((x) => x * x + 1, -1, 1), RangeError);
});
