import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { chemsepEntry, chemsepFile, chemsepLayer } from './chemsep-layer.ts';
import { allCompounds } from './compounds.ts';
import { referenceFluidByCas } from './helmholtz/fluids.ts';
import { polynomialHeatCapacity } from './ideal-gas.ts';
import { findCompound } from './lookup.ts';
import { boilingPointOf, vaporPressureOf } from './saturation.ts';

const STANDARD_VERSION_SHA256 = '78b3e0c6408ff35f3b75fb71a1fdd70bb8e967d8996b49452a4a9fa2dd567c76';
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

test('the bundled chemsep1.xml is the Standard Version, byte for byte, with its licence beside it', () => {
  assert.equal(sha256(chemsepFile()), STANDARD_VERSION_SHA256);
  assert.match(readFileSync(join(chemsepFile(), '../LICENSE'), 'utf8'), /^The Artistic License 2\.0\n/);
  assert.match(readFileSync(chemsepFile(), 'utf8').slice(0, 400), /Copyright \(c\) Harry Kooijman and Ross Taylor/);
});

test('worked example: water, DIPPR 106 liquid density at 298.15 K', () => {
  const water = chemsepEntry('7732-18-5')!;
  const fit = water.correlations.liquid_density!;
  assert.equal(fit.equation.form, 106);
  assert.equal(fit.equation.criticalTemperature, 647.14);
  // 32.51621·(1 − Tr)^(−3.213004 + 7.92411·Tr − 7.359898·Tr² + 2.703522·Tr³), Tr = 298.15/647.14
  const tr = 298.15 / 647.14;
  const expected = 32.51621 * (1 - tr) ** (-3.213004 + 7.92411 * tr - 7.359898 * tr ** 2 + 2.703522 * tr ** 3);
  assert.ok(Math.abs(fit.value(298.15) - expected) < 1e-12);
  assert.ok(Math.abs(expected - 55.3) < 0.01, `${expected}`);
  assert.match(fit.method, /^ChemSep DIPPR equation 106: .*Tc = 647\.14 K/);
  assert.match(fit.source, /ChemSep 8\.32/);
});

test('every correlation of the layer is finite and positive at the ends and middle of its range', () => {
  let checked = 0;
  for (const entry of chemsepLayer().values()) {
    for (const c of Object.values(entry.correlations)) {
      // 1 K short of the top: ΔHvap (and water's DIPPR-106 density) reach zero at Tc, where ranges may end.
      const ends = [c.range.min, 0.5 * (c.range.min + c.range.max), c.range.max - 1];
      for (const t of ends) {
        const v = c.value(t);
        assert.ok(Number.isFinite(v) && v > 0, `${entry.name} ${c.property} at ${t} K: ${v}`);
      }
      checked++;
    }
  }
  assert.ok(checked > 2000, `${checked}`);
});

// Vapour pressure against measured points from another source: the catalogue's normal boiling
// points (P = 101.325 kPa there). Most fits agree within 2 %; the rest are flagged in every answer.
test('ChemSep’s vapour-pressure fits meet the normal boiling points on record, or their answers say how far they miss', () => {
  const off: string[] = [];
  let compared = 0;
  for (const c of allCompounds()) {
    const tb = c.properties.normal_boiling_point?.value;
    const fit = chemsepEntry(c.cas)?.correlations.vapor_pressure;
    if (tb === undefined || !fit || tb < fit.range.min || tb > fit.range.max) continue;
    compared++;
    const deviation = (100 * (fit.value(tb) - 101325)) / 101325;
    if (Math.abs(deviation) <= 2) continue;
    off.push(`${c.name} ${deviation.toFixed(1)}%`);
    // The compound's reference equation or its own equations answer first.
    if (c.correlations?.vapor_pressure || referenceFluidByCas(c.cas)) continue;
    const answer = vaporPressureOf(c, tb);
    assert.match(answer.method, /^ChemSep/, c.name);
    assert.match(answer.warnings.join(' '), /off 101\.325 kPa: expect errors of that size/, c.name);
  }
  assert.ok(compared >= 250, `${compared}`);
  assert.ok(off.length <= 0.15 * compared, `beyond 2 %: ${off.join(', ')}`);
});

// Lee–Kesler would put ammonia's boiling point at 240.77 K, against 239.82 K on record.
test('ammonia, CO2, N2, O2 and H2S boil by a reference equation or a fit to measured data', () => {
  for (const name of ['ammonia', 'nitrogen', 'oxygen', 'hydrogen sulfide']) {
    const c = findCompound(name).compound;
    const point = boilingPointOf(c, 101325);
    assert.match(point.method, /^(ChemSep DIPPR equation 101|Reference equation of state)/, name);
    const tb = c.properties.normal_boiling_point!.value;
    assert.ok(Math.abs(point.temperature - tb) < 0.3, `${name}: ${point.temperature} K vs ${tb} K`);
  }
  // CO2 has no liquid at 1 atm: its fit answers at 10 bar instead.
  assert.match(
    boilingPointOf(findCompound('CO2').compound, 1e6).method,
    /^(ChemSep DIPPR equation 101|Reference equation of state)/,
  );
});

// Ideal-gas Cp° against another compilation: Poling's polynomials on record, where both hold.
test('ChemSep’s ideal-gas Cp° agrees with the Poling polynomials on record within 4 % at 300, 500 and 800 K (≥ 95 %)', () => {
  const off: string[] = [];
  let compared = 0;
  for (const c of allCompounds()) {
    const poling = c.correlations?.ideal_gas_cp;
    const fit = chemsepEntry(c.cas)?.correlations.ideal_gas_cp;
    if (!poling || !fit) continue;
    for (const t of [300, 500, 800]) {
      if (t < Math.max(poling.valid_range.min, fit.range.min) || t > Math.min(poling.valid_range.max, fit.range.max))
        continue;
      compared++;
      const deviation = (100 * (fit.value(t) - polynomialHeatCapacity(poling.coefficients, t))) / fit.value(t);
      if (Math.abs(deviation) > 4) off.push(`${c.name} ${t} K ${deviation.toFixed(1)}%`);
    }
  }
  assert.ok(compared >= 300, `${compared}`);
  assert.ok(off.length <= 0.05 * compared, `beyond 4 %: ${off.join(', ')}`);
});

// ΔHvap against the vapour-pressure fit: Clausius–Clapeyron with an ideal vapour and no liquid volume,
// ΔH ≈ −R·d ln P/d(1/T), which reads high by the vapour's non-ideality at the boiling point (5–12 % for
// alkanes) and is meaningless for vapours that associate (carboxylic acids, HNO3, NO2 dimerize): those
// are left out. Two independent fits of one compound agree this far.
const ASSOCIATING_VAPOURS = /C\(=O\)O$|C\(=O\)O[^C]|^OC\(=O\)|N\(=O\)=O|\[N\+\]\(=O\)\[O-\]|^O=NO?$|^\[O-\]\[N\+\]/;
test('ChemSep’s ΔHvap at the normal boiling point agrees with Clausius–Clapeyron on its Psat fit within 15 %', () => {
  const off: string[] = [];
  let compared = 0;
  for (const c of allCompounds()) {
    const tb = c.properties.normal_boiling_point?.value;
    const entry = chemsepEntry(c.cas);
    const psat = entry?.correlations.vapor_pressure;
    const dh = entry?.correlations.heat_of_vaporization;
    if (tb === undefined || !psat || !dh || ASSOCIATING_VAPOURS.test(c.smiles)) continue;
    if (tb < Math.max(psat.range.min, dh.range.min) + 1 || tb > Math.min(psat.range.max, dh.range.max) - 1) continue;
    compared++;
    const h = 0.01;
    const slope = (Math.log(psat.value(tb + h)) - Math.log(psat.value(tb - h))) / (1 / (tb + h) - 1 / (tb - h));
    const clapeyron = -8.314462618 * slope;
    const deviation = (100 * (dh.value(tb) - clapeyron)) / clapeyron;
    if (Math.abs(deviation) > 15) off.push(`${c.name} ${deviation.toFixed(1)}%`);
  }
  assert.ok(compared >= 200, `${compared}`);
  assert.ok(off.length <= 0.02 * compared, `beyond 15 %: ${off.join(', ')}`);
});
