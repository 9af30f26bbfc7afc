import assert from 'node:assert/strict';
import { it } from 'node:test';
import { R } from './constants.ts';
import { polynomialEnthalpyChange, polynomialEntropyChange, polynomialHeatCapacity } from './ideal-gas.ts';

// Nitrogen, Poling et al. 5th ed. App. A coefficients (50–1000 K), against NIST-JANAF (M. W. Chase,
// J. Phys. Chem. Ref. Data Monograph 9, 1998): Cp°(298.15) = 29.124, Cp°(500) = 29.580 J/(mol·K),
// H°(500) − H°(298.15) = 5.911 kJ/mol, S°(500) − S°(298.15) = 206.739 − 191.609 J/(mol·K).
// Tolerances: 0.3% on Cp° and ΔH°, 0.05 J/(mol·K) on ΔS° (the polynomial's fitting error).
const NITROGEN = [3.539, -0.261e-3, 0.007e-5, 0.157e-8, -0.099e-11];

it('nitrogen: Cp°, ΔH° and ΔS° between 298.15 and 500 K agree with JANAF', () => {
  const within = (actual: number, expected: number, relative: number) =>
    assert.ok(Math.abs(actual - expected) <= relative * Math.abs(expected), `${actual} vs ${expected}`);
  within(polynomialHeatCapacity(NITROGEN, 298.15), 29.124, 0.003);
  within(polynomialHeatCapacity(NITROGEN, 500), 29.58, 0.003);
  within(polynomialEnthalpyChange(NITROGEN, 298.15, 500), 5911, 0.003);
  assert.ok(Math.abs(polynomialEntropyChange(NITROGEN, 298.15, 500) - (206.739 - 191.609)) < 0.05);
});

it('a monatomic gas (Cp° = 5R/2) gives ΔH° = 5R/2·ΔT and ΔS° = 5R/2·ln(T2/T1) exactly', () => {
  const monatomic = [2.5, 0, 0, 0, 0];
  assert.equal(polynomialHeatCapacity(monatomic, 1234), 2.5 * R);
  assert.ok(Math.abs(polynomialEnthalpyChange(monatomic, 300, 800) - 2.5 * R * 500) < 1e-9);
  assert.ok(Math.abs(polynomialEntropyChange(monatomic, 300, 800) - 2.5 * R * Math.log(800 / 300)) < 1e-12);
});

it('the analytic integrals match Simpson quadrature, and reversing the limits changes the sign', () => {
  const simpson = (f: (t: number) => number, a: number, b: number, n = 2000) => {
    const h = (b - a) / n;
    let s = f(a) + f(b);
    for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(a + i * h);
    return (s * h) / 3;
  };
  const cp = (t: number) => polynomialHeatCapacity(NITROGEN, t);
  assert.ok(Math.abs(polynomialEnthalpyChange(NITROGEN, 250, 900) - simpson(cp, 250, 900)) < 1e-6);
  assert.ok(Math.abs(polynomialEntropyChange(NITROGEN, 250, 900) - simpson((t) => cp(t) / t, 250, 900)) < 1e-9);
  assert.equal(polynomialEnthalpyChange(NITROGEN, 900, 250), -polynomialEnthalpyChange(NITROGEN, 250, 900));
});
