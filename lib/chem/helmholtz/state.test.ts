import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { allCompounds } from '../compounds.ts';
import { vaporPressureOf } from '../saturation.ts';
import { FLUIDS_FOLDER, referenceFluidByCas, referenceFluidDir, referenceFluids } from './fluids.ts';
import { densityAt, saturationAtPressure, saturationAtTemperature, stateAt } from './state.ts';
import { ideal, residual } from './terms.ts';

const water = referenceFluidByCas('7732-18-5');
const close = (actual: number, expected: number, digits: number, what: string) =>
  assert.ok(
    Math.abs(actual - expected) <= 0.5 * 10 ** -digits * Math.abs(expected) * 10,
    `${what}: ${actual} vs ${expected}`,
  );

// IAPWS R6-95(2018), Tables 6–8 (the check values printed in the release; as tabulated in
// calculisto/iapws, include/calculisto/iapws/detail/data_for_the_tests.hpp, and other implementations).
describe('IAPWS-95 (water) against the check values of its release', () => {
  const molarMass = () => water!.molarMass;
  it('Table 6: ideal and residual parts and derivatives at 500 K, 838.025 kg/m3', () => {
    const delta = 838.025 / molarMass() / water!.reducing.density;
    const tau = 647.096 / 500;
    const r = residual(water!.residual, delta, tau);
    const o = ideal(water!.ideal, delta, tau);
    close(o.a, 0.204797734e1, 8, 'φ°');
    close(o.t, 0.904611106e1, 8, 'φ°τ');
    close(o.tt, -0.193249185e1, 8, 'φ°ττ');
    close(r.a, -0.342693206e1, 8, 'φʳ');
    close(r.d, -0.36436665, 8, 'φʳδ');
    close(r.dd, 0.856063701, 8, 'φʳδδ');
    close(r.t, -0.581403435e1, 8, 'φʳτ');
    close(r.tt, -0.223440737e1, 8, 'φʳττ');
    close(r.dt, -0.112176915e1, 8, 'φʳδτ');
  });
  it('Table 7: p, cv, w and s in the single-phase region (including 647 K, 358 kg/m3, near critical)', () => {
    // T (K), ρ (kg/m3), p (MPa), cv (kJ/(kg·K)), w (m/s), s (kJ/(kg·K))
    const table7 = [
      [300, 0.996556e3, 0.992418352e-1, 0.413018112e1, 0.150151914e4, 0.393062643],
      [300, 0.1005308e4, 0.200022515e2, 0.406798347e1, 0.153492501e4, 0.387405401],
      [300, 0.1188202e4, 0.700004704e3, 0.34613558e1, 0.244357992e4, 0.132609616],
      [500, 0.435, 0.999679423e-1, 0.150817541e1, 0.548314253e3, 0.794488271e1],
      [500, 0.4532e1, 0.999938125, 0.166991025e1, 0.535739001e3, 0.682502725e1],
      [500, 0.838025e3, 0.100003858e2, 0.322106219e1, 0.127128441e4, 0.256690919e1],
      [500, 0.1084564e4, 0.700000405e3, 0.307437693e1, 0.241200877e4, 0.203237509e1],
      [647, 0.358e3, 0.220384756e2, 0.618315728e1, 0.252145078e3, 0.432092307e1],
      [900, 0.241, 0.100062559, 0.175890657e1, 0.724027147e3, 0.916653194e1],
      [900, 0.52615e2, 0.20000069e2, 0.193510526e1, 0.698445674e3, 0.659070225e1],
      [900, 0.870769e3, 0.700000006e3, 0.26642235e1, 0.201933608e4, 0.417223802e1],
    ];
    for (const [t, rho, p, cv, w, s] of table7) {
      const state = stateAt(water!, t, rho / molarMass());
      const at = `${t} K, ${rho} kg/m3`;
      close(state.pressure / 1e6, p, 8, `p at ${at}`);
      close(state.cv / molarMass() / 1e3, cv, 8, `cv at ${at}`);
      close(state.speedOfSound, w, 8, `w at ${at}`);
      close(state.entropy / molarMass() / 1e3, s, 8, `s at ${at}`);
    }
  });
  it('Table 8: the saturation line at 275, 450 and 625 K, by phase equilibrium', () => {
    // T (K), p (MPa), ρ′, ρ″ (kg/m3), h′, h″ (kJ/kg), s′, s″ (kJ/(kg·K))
    const table8 = [
      [275, 0.698451167e-3, 0.999887406e3, 0.550664919e-2, 0.775972202e1, 0.250428995e4, 0.28309467e-1, 0.910660121e1],
      [450, 0.932203564, 0.89034125e3, 0.48120036e1, 0.749161585e3, 0.277441078e4, 0.210865845e1, 0.660921221e1],
      [625, 0.169082693e2, 0.567090385e3, 0.11829028e3, 0.168626976e4, 0.255071625e4, 0.380194683e1, 0.518506121e1],
    ];
    for (const [t, p, rhoL, rhoV, hL, hV, sL, sV] of table8) {
      const sat = saturationAtTemperature(water!, t);
      close(sat.pressure / 1e6, p, 8, `p at ${t} K`);
      close(sat.liquidDensity * molarMass(), rhoL, 8, `ρ′ at ${t} K`);
      close(sat.vaporDensity * molarMass(), rhoV, 8, `ρ″ at ${t} K`);
      const liquid = stateAt(water!, t, sat.liquidDensity);
      const vapor = stateAt(water!, t, sat.vaporDensity);
      close(liquid.enthalpy / molarMass() / 1e3, hL, 7, `h′ at ${t} K`);
      close(vapor.enthalpy / molarMass() / 1e3, hV, 8, `h″ at ${t} K`);
      close(liquid.entropy / molarMass() / 1e3, sL, 7, `s′ at ${t} K`);
      close(vapor.entropy / molarMass() / 1e3, sV, 8, `s″ at ${t} K`);
      // Inverse: the saturation temperature at that pressure.
      close(saturationAtPressure(water!, p * 1e6).temperature, t, 9, `T at ${p} MPa`);
    }
  });
  it('density at (T, p) picks the stable phase', () => {
    // Table 7's first row, read the other way: 300 K, 0.0992418352 MPa → 996.556 kg/m3 (liquid).
    close(densityAt(water!, 300, 0.0992418352e6) * water!.molarMass, 996.556, 7, 'liquid');
    // 500 K, 0.0999679423 MPa → 0.435 kg/m3 (vapour, below the saturation pressure).
    close(densityAt(water!, 500, 0.0999679423e6) * water!.molarMass, 0.435, 7, 'vapour');
    // 900 K, 70 MPa → 870.769 kg/m3 (supercritical).
    close(densityAt(water!, 900, 700.000006e6) * water!.molarMass, 870.769, 7, 'supercritical');
    assert.throws(() => densityAt(water!, 200, 1e5), RangeError);
    assert.throws(() => saturationAtTemperature(water!, 700), /outside the saturation line/);
  });
});

describe('every reference fluid on hand', () => {
  it('loads, with its paper cited, and none refused', () => {
    const { fluids, skipped } = referenceFluids();
    assert.ok(fluids.length >= 70, `${fluids.length}`);
    assert.deepEqual(skipped, []);
    for (const f of fluids) assert.ok(f.citation.length > 20, f.name);
  });
  it('reaches phase equilibrium (equal p and Gibbs energy) from the triple point to 0.9999·Tc', () => {
    for (const f of referenceFluids().fluids) {
      const tc = f.critical.temperature;
      // R14's equation has its own critical point at 227.396 K (CoolProp's superancillary), below the
      // 227.51 K its file states: no two phases at 0.9999·Tc.
      const tops = f.name === 'R14' ? [0.999 * f.critical.temperature] : [0.999 * tc, 0.9999 * tc];
      for (const t of [
        f.tripleTemperature,
        f.tripleTemperature + 0.01,
        0.5 * (f.tripleTemperature + tc),
        0.99 * tc,
        ...tops,
      ]) {
        const sat = saturationAtTemperature(f, t);
        // From αʳ directly (stateAt refuses p ≤ 0, and the liquid's p, ρRT(1 + δαʳδ), is round-off where
        // p_sat is 1e-10 Pa, as R124's at its triple point): p/(ρr·RT) = δ(1 + δαʳδ) and, without the
        // ideal part (the same in both phases), g/RT = αʳ + δαʳδ + ln δ.
        const tau = f.reducing.temperature / t;
        const reduced = (rho: number) => {
          const delta = rho / f.reducing.density;
          const r = residual(f.residual, delta, tau);
          return { p: delta * (1 + delta * r.d), g: r.a + delta * r.d + Math.log(delta) };
        };
        const l = reduced(sat.liquidDensity);
        const v = reduced(sat.vaporDensity);
        // On the scale of the liquid's ρRT (near the triple point p is a tiny difference of large terms).
        const scale = sat.liquidDensity / f.reducing.density;
        assert.ok(Math.abs(l.p - v.p) < 1e-10 * scale, `${f.name} at ${t} K: p`);
        assert.ok(Math.abs(l.g - v.g) < 1e-9, `${f.name} at ${t} K: g`);
        // The caloric route agrees: g = h − Ts from stateAt (the vapour, and the liquid where its p > 0).
        const vapor = stateAt(f, t, sat.vaporDensity);
        if (l.p > 1e-9 * scale) {
          const liquid = stateAt(f, t, sat.liquidDensity);
          const g = (s: typeof liquid) => s.enthalpy - t * s.entropy;
          assert.ok(Math.abs(g(liquid) - g(vapor)) < 1e-6 * f.gasConstant * t, `${f.name} at ${t} K: h − Ts`);
        }
        assert.ok(sat.liquidDensity > sat.vaporDensity, `${f.name} at ${t} K`);
        // And back: the saturation temperature at that pressure.
        if (t < 0.9999 * tc) {
          const back = saturationAtPressure(f, sat.pressure).temperature;
          assert.ok(Math.abs(back - t) < 1e-9 * t, `${f.name}: Tsat(${sat.pressure} Pa) = ${back} K, not ${t} K`);
        }
      }
    }
    const r14 = referenceFluids().fluids.find((f) => f.name === 'R14');
    if (r14) assert.throws(() => saturationAtTemperature(r14, 0.9999 * r14.critical.temperature), RangeError);
  });
  it('reproduces the saturation states CoolProp stores with each file (its extended-precision solution) to 1e-9', () => {
    // EOS[0].SUPERANCILLARY.check_points: T, p, ρ′, ρ″ from CoolProp's multiple-precision phase
    // equilibrium of the same coefficients, three temperatures per fluid: a check of this evaluator
    // (every term type) and solver, independent of the papers' printed digits.
    let compared = 0;
    const dir = join(referenceFluidDir(), FLUIDS_FOLDER);
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.json')) continue;
      const json = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      const f = referenceFluidByCas(json.INFO.CAS);
      for (const point of json.EOS[0].SUPERANCILLARY?.check_points ?? []) {
        if (!f) continue;
        const sat = saturationAtTemperature(f, Math.max(point['T / K'], f.tripleTemperature));
        const what = `${f.name} at ${point['T / K']} K`;
        assert.ok(Math.abs(sat.pressure / point['p(mp) / Pa'] - 1) < 1e-9, `${what}: p ${sat.pressure}`);
        assert.ok(Math.abs(sat.liquidDensity / point["rho'(mp) / mol/m^3"] - 1) < 1e-9, `${what}: ρ′`);
        assert.ok(Math.abs(sat.vaporDensity / point["rho''(mp) / mol/m^3"] - 1) < 1e-9, `${what}: ρ″`);
        compared++;
      }
    }
    assert.ok(compared >= 3 * 90, `${compared}`);
  });
  it('puts each fluid’s normal boiling point on record (another source) within 0.3 K, or its answers say how far off', () => {
    const off: string[] = [];
    let compared = 0;
    for (const c of allCompounds()) {
      const f = referenceFluidByCas(c.cas);
      const tb = c.properties.normal_boiling_point?.value;
      if (!f || tb === undefined || tb < f.tripleTemperature) continue;
      compared++;
      const t = saturationAtPressure(f, 101325).temperature;
      if (Math.abs(t - tb) <= 0.3) continue;
      off.push(`${c.name}: ${t.toFixed(2)} K vs ${tb} K`);
      if (Math.abs(t - tb) > 0.5)
        assert.match(vaporPressureOf(c, t).warnings.join(' '), /puts the normal boiling point at/, c.name);
    }
    assert.ok(compared >= 60, `${compared}`);
    assert.ok(off.length <= 0.1 * compared, off.join('; '));
  });
  it('answers a metastable phase when asked, and RangeErrors (never NaN) outside the equation', () => {
    // Superheated liquid water at 300 K, 1 kPa (below p_sat = 3.5 kPa): just below the saturated liquid's density.
    const sat = saturationAtTemperature(water!, 300);
    const superheated = densityAt(water!, 300, 1e3, 'liquid');
    assert.ok(superheated < sat.liquidDensity && superheated > 0.999 * sat.liquidDensity, `${superheated}`);
    close(stateAt(water!, 300, superheated).pressure, 1e3, 7, 'p of the superheated liquid');
    // Subcooled vapour at 300 K, 5 kPa: just above the saturated vapour's density; none at 1 MPa (beyond the spinodal).
    const subcooled = densityAt(water!, 300, 5e3, 'vapor');
    assert.ok(subcooled > sat.vaporDensity && subcooled < 2 * sat.vaporDensity, `${subcooled}`);
    assert.throws(() => densityAt(water!, 300, 1e6, 'vapor'), /spinodal/);
    // Inside the two-phase dome: IAPWS-95 gives p < 0 at 500 K, 322 kg/m3, and (∂p/∂ρ)_T < 0 at 620 K, 400 kg/m3.
    assert.throws(() => stateAt(water!, 500, water!.critical.density), /two-phase region/);
    assert.throws(() => stateAt(water!, 620, 400 / water!.molarMass), /spinodal/);
    assert.throws(() => stateAt(water!, 100, 1000), RangeError);
    assert.throws(() => stateAt(water!, 300, -1), RangeError);
    assert.throws(() => densityAt(water!, 300, 2e9), /outside the range/);
    assert.throws(() => saturationAtPressure(water!, 30e6), /outside the saturation line/);
  });
});
