import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withDataLayersBut } from '../../test/support/data-layers.ts';
import type { Compound } from './compounds.ts';
import { findCompound } from './lookup.ts';
import { EXTRAPOLATION_LIMIT_K } from './method-chain.ts';
import { boilingPointOf, vaporPressureOf } from './saturation.ts';
import { ToolError } from './tool.ts';

const water = findCompound('water').compound;

// A methane-like fixture: Poling's Wagner coefficients for methane (its own Tc 190.551 K, Pc 45.992
// bar) listed first, then an Antoine equation in the NIST WebBook form (Prydz & Goodwin's methane
// fit) covering lower temperatures. The ranges are the fixture's, chosen to exercise the choice.
const book = 'A Test Book';
function methaneLike(overrides: Partial<Compound> = {}): Compound {
  return {
    name: 'testmethane',
    cas: '0-00-0', // not in ChemSep, so only the fixture's equations count
    formula: 'CH4',
    smiles: 'C',
    synonyms: [],
    properties: {
      critical_temperature: { value: 190.56, unit: 'K', source: book },
      critical_pressure: { value: 45.99, unit: 'bar', source: book },
      acentric_factor: { value: 0.011, unit: '', source: book },
      melting_point: { value: 90.69, unit: 'K', source: book },
    },
    correlations: {
      vapor_pressure: [
        {
          equation: 'wagner_25_5',
          coefficients: { a: -6.02242, b: 1.26652, c: -0.5707, d: -1.366 },
          critical_temperature: 190.551,
          critical_pressure: 45.992,
          valid_range: { min: 120, max: 190.55, unit: 'K' },
          source: 'Wagner source',
        },
        {
          equation: 'antoine',
          coefficients: { A: 3.9895, B: 443.028, C: -0.49 },
          valid_range: { min: 90.99, max: 130, unit: 'K' },
          source: 'Antoine source',
        },
      ],
    },
    ...overrides,
  };
}

const isToolError = (code: string, message?: RegExp) => (error: unknown) =>
  error instanceof ToolError && error.code === code && (!message || message.test(error.message));

describe('water from a data folder without CoolProp’s files: IAPWS-IF97', () => {
  it('gives the IF97 vectors, in range without warnings', () =>
    withDataLayersBut(['coolprop'], () => {
      const p = vaporPressureOf(water, 300);
      assert.ok(Math.abs(p.pressure - 3536.59) < 0.005);
      assert.match(p.method, /IAPWS-IF97/);
      assert.deepEqual(p.warnings, []);
      assert.ok(Math.abs(boilingPointOf(water, 1e6).temperature - 453.0356) < 1e-4);
      assert.ok(Math.abs(boilingPointOf(water, 101_325).temperature - 373.124) < 0.001);
    }));

  it('refuses T ≥ Tc and P ≥ Pc; below IF97’s range a fit whose range holds answers, subcooled', () =>
    withDataLayersBut(['coolprop'], () => {
      assert.throws(() => vaporPressureOf(water, 647.096), isToolError('out_of_range', /critical temperature/));
      assert.throws(() => boilingPointOf(water, 22.064e6), isToolError('out_of_range', /critical pressure/));
      // ChemSep's fit holds from 263.15 K: it answers there rather than IF97 extrapolated.
      const cold = vaporPressureOf(water, 268);
      assert.match(cold.method, /^ChemSep/);
      assert.equal(cold.warnings.length, 1);
      assert.match(cold.warnings[0], /below the melting point/);
      const low = boilingPointOf(water, 300);
      assert.ok(low.temperature < 273.15 && low.temperature > 263.15, `${low.temperature}`);
      assert.match(low.method, /^ChemSep/);
      assert.doesNotMatch(low.warnings.join(' '), /extrapolated;|the value is extrapolated/);
    }));

  // "25" with no unit is 25 K, 248 K below IF97's range.
  it('refuses 25 K and 150 K, naming IF97’s range and every other method’s, and suggests °C', () =>
    withDataLayersBut(['coolprop'], () => {
      for (const t of [25, 150]) {
        assert.throws(
          () => vaporPressureOf(water, t),
          isToolError(
            'out_of_range',
            new RegExp(
              `IAPWS-IF97 saturation equation: 273.15–647.096 K; ChemSep's DIPPR-101 fit: 263.15–647.29 K; the Lee–Kesler estimate: 194.129–647.096 K.*did you mean ${t} °C`,
            ),
          ),
        );
      }
    }));
});

describe('water with its reference equation on hand', () => {
  it('refuses 25 K and 150 K, naming the reference equation’s range and every other method’s', () => {
    for (const t of [25, 150]) {
      assert.throws(
        () => vaporPressureOf(water, t),
        isToolError(
          'out_of_range',
          new RegExp(
            `reference equation of state for Water: 273.16–647.096 K; .*Lee–Kesler estimate: 194.129–647.096 K.*did you mean ${t} °C`,
          ),
        ),
      );
    }
  });
});

describe('stored correlations', () => {
  const c = methaneLike();

  it('uses the first correlation whose range holds T (Wagner listed first wins where both apply)', () => {
    const p150 = vaporPressureOf(c, 150);
    assert.match(p150.method, /^Wagner/);
    assert.equal(p150.source, 'Wagner source');
    assert.deepEqual(p150.valid_range, { min: 120, max: 190.55, unit: 'K' });
    assert.deepEqual(p150.warnings, []);
    assert.match(vaporPressureOf(c, 125).method, /^Wagner/);
    const p100 = vaporPressureOf(c, 100);
    assert.match(p100.method, /^Antoine/);
    // Both methane equations agree at 100 K: 34.4 kPa (Wagner 34415 Pa, Antoine 34.4 kPa).
    assert.ok(Math.abs(p100.pressure - 34_415) < 150, `${p100.pressure}`);
  });

  // The Antoine range is 39 K wide: it may be extrapolated 5 % of that, 1.95 K, less than EXTRAPOLATION_LIMIT_K.
  it(`extrapolates a correlation at most min(${EXTRAPOLATION_LIMIT_K} K, 5 % of its range's width), with a warning naming its range`, () => {
    const bare = methaneLike({ properties: { melting_point: c.properties.melting_point } });
    const p = vaporPressureOf(bare, 90);
    assert.match(p.method, /^Antoine/);
    assert.match(
      p.warnings.join(' '),
      /90 K is 0.99 K below the range of the Antoine equation on record \(90.99–130 K\); the value is extrapolated/,
    );
    assert.match(p.warnings.join(' '), /below the melting point/);
    assert.throws(
      () => vaporPressureOf(bare, 88.9),
      isToolError(
        'out_of_range',
        /Wagner equation on record: 120–190.55 K; the Antoine equation on record: 90.99–130 K/,
      ),
    );
    const back = boilingPointOf(bare, p.pressure);
    assert.ok(Math.abs(back.temperature - 90) < 1e-6);
    assert.match(back.warnings.join(' '), /below the range of the Antoine equation on record .*extrapolated/);
  });

  it('says "triple point" where the data gives one instead of a melting point', () => {
    const triple = methaneLike({
      properties: {
        ...c.properties,
        melting_point: { value: 90.69, unit: 'K', source: book, note: 'Triple-point temperature.' },
      },
    });
    assert.match(vaporPressureOf(triple, 85).warnings.join(' '), /below the triple point \(90.69 K\)/);
  });

  it('falls back to Lee–Kesler inside its range (0.3·Tc to Tc), flagged as an estimate', () => {
    const p = vaporPressureOf(c, 70);
    assert.match(p.method, /^Lee–Kesler/);
    assert.match(p.source, /Lee, M. G. Kesler/);
    assert.match(p.warnings.join(' '), /corresponding states/);
    assert.match(p.warnings.join(' '), /outside the range of every vapour-pressure equation on record/);
    assert.doesNotMatch(p.warnings.join(' '), /the value is extrapolated/);
    assert.deepEqual(p.valid_range, { min: 0.3 * 190.56, max: 190.56, unit: 'K' });
  });

  it('Lee–Kesler never answers beyond its allowance below 0.3·Tc: out_of_range naming every range', () => {
    // 0.3·Tc = 57.168 K; the allowance is min(10 K, 5 % of 133.4 K) = 6.67 K.
    const near = vaporPressureOf(c, 55);
    assert.match(near.method, /^Lee–Kesler/);
    assert.match(
      near.warnings.join(' '),
      /55 K is 2.168 K below the range of the Lee–Kesler estimate \(57.168–190.56 K\)/,
    );
    assert.throws(
      () => vaporPressureOf(c, 50),
      isToolError('out_of_range', /Antoine equation on record: 90.99–130 K; the Lee–Kesler estimate: 57.168–190.56 K/),
    );
    assert.throws(() => boilingPointOf(c, 1e-6), isToolError('out_of_range', /Lee–Kesler estimate/));
  });

  it('without Tc, Pc and ω, far outside every correlation is out_of_range, not an extrapolation', () => {
    const bare = methaneLike({ properties: {} });
    assert.throws(
      () => vaporPressureOf(bare, 70),
      isToolError(
        'out_of_range',
        /Wagner equation on record: 120–190.55 K; the Antoine equation on record: 90.99–130 K/,
      ),
    );
  });

  it("refuses T at or above the compound's Tc", () => {
    assert.throws(() => vaporPressureOf(c, 190.56), isToolError('out_of_range', /no vapour pressure/));
    assert.throws(() => boilingPointOf(c, 46e5), isToolError('out_of_range', /no boiling point/));
  });

  it('boiling point inverts vapour pressure with the same method, in range, estimated and extrapolated', () => {
    for (const t of [95, 110, 125, 150, 185, 85, 70, 55]) {
      const forward = vaporPressureOf(c, t);
      const back = boilingPointOf(c, forward.pressure);
      assert.ok(Math.abs(back.temperature - t) < 1e-6, `T = ${t}: back to ${back.temperature}`);
      assert.equal(back.method.split(' ')[0], forward.method.split(' ')[0], `T = ${t}`);
      assert.match(back.method, /solved for T/);
      assert.equal(
        back.warnings.length,
        forward.warnings.length,
        `T = ${t}: ${back.warnings.join(' | ')} vs ${forward.warnings.join(' | ')}`,
      );
    }
  });
});

describe('no correlation on record', () => {
  it('estimates with Lee–Kesler and says so', () => {
    const c = methaneLike({ correlations: undefined });
    const p = vaporPressureOf(c, 111.67);
    assert.match(p.method, /^Lee–Kesler/);
    assert.ok(Math.abs(p.pressure - 101_325) / 101_325 < 0.03, `methane NBP by Lee–Kesler: ${p.pressure} Pa`);
    assert.match(p.warnings[0], /Estimated from corresponding states/);
    assert.ok(Math.abs(boilingPointOf(c, p.pressure).temperature - 111.67) < 1e-6);
  });

  it('is missing_data when Tc, Pc or ω is missing too, naming what is missing', () => {
    const c = methaneLike({
      correlations: undefined,
      properties: { critical_temperature: { value: 190.56, unit: 'K', source: book } },
    });
    assert.throws(() => vaporPressureOf(c, 150), isToolError('missing_data', /critical pressure, acentric factor/));
    assert.throws(() => boilingPointOf(c, 1e5), isToolError('missing_data'));
  });
});
