import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type CriticalConstants,
  CUBIC_EOS,
  CUBIC_EOS_IDS,
  compressibilityRoots,
  dimensionless,
  kayPseudoCritical,
  lnFugacityCoefficient,
  lnFugacityCoefficientsInMixture,
  massDensity,
  mixtureParameters,
  mixtureState,
  pureParameters,
  pureState,
} from './eos.ts';

const BAR = 1e5;
const relative = (actual: number | undefined, expected: number) => Math.abs((actual ?? NaN) / expected - 1);

test('Peng–Robinson, propane (369.8 K, 42.49 bar, ω 0.152) at 298 K, 1 bar: Vg 0.0243660, Vl 8.6817e-5 m3/mol (rel. tol. 1e-5)', () => {
  const s = pureState(CUBIC_EOS.peng_robinson, { tc: 369.8, pc: 42.49 * BAR, acentric: 0.152 }, 298, 1 * BAR);
  assert.equal(s.zRoots.length, 3);
  assert.ok(relative(s.vapor?.molarVolume, 0.024366) < 1e-5, String(s.vapor?.molarVolume));
  assert.ok(relative(s.liquid?.molarVolume, 8.6817e-5) < 1e-5, String(s.liquid?.molarVolume));
  assert.equal(s.label, 'vapor'); // 1 bar is far below propane's vapour pressure at 298 K (about 9.5 bar)
});

test('Peng–Robinson, Tc 507.6 K, Pc 30.25 bar, ω 0.2975 at 400 K, 10 bar: Vl 1.56073e-4, Vg 2.14188e-3 m3/mol (thermo docs; rel. tol. 1e-5)', () => {
  const s = pureState(CUBIC_EOS.peng_robinson, { tc: 507.6, pc: 30.25 * BAR, acentric: 0.2975 }, 400, 10 * BAR);
  assert.ok(relative(s.liquid?.molarVolume, 1.56073e-4) < 1e-5, String(s.liquid?.molarVolume));
  assert.ok(relative(s.vapor?.molarVolume, 2.14188e-3) < 1e-5, String(s.vapor?.molarVolume));
  assert.equal(s.label, 'liquid'); // n-hexane's vapour pressure at 400 K is about 5.7 bar
  assert.ok(s.liquid!.lnPhi < s.vapor!.lnPhi);
});

test('n-butane (425.1 K, 37.96 bar, ω 0.200) at 350 K, 9.4573 bar, vapour Z of each equation (SVA 7th ed. Example 3.9; abs. tol. 1e-4)', () => {
  const butane: CriticalConstants = { tc: 425.1, pc: 37.96 * BAR, acentric: 0.2 };
  const expected = { van_der_waals: 0.8667, redlich_kwong: 0.8305, srk: 0.8191, peng_robinson: 0.8081 };
  for (const id of CUBIC_EOS_IDS) {
    const s = pureState(CUBIC_EOS[id], butane, 350, 9.4573 * BAR);
    assert.ok(Math.abs(s.vapor!.z - expected[id]) < 1e-4, `${id}: Z = ${s.vapor?.z}`);
  }
  // 9.4573 bar is butane's vapour pressure at 350 K; Peng–Robinson reproduces it closely, so it says so.
  const pr = pureState(CUBIC_EOS.peng_robinson, butane, 350, 9.4573 * BAR);
  assert.equal(pr.label, 'vapor-like');
  assert.match(pr.warnings.join(' '), /Near saturation/);
});

test('each equation reproduces the critical point: a triple root Zc at Tc, Pc', () => {
  const c: CriticalConstants = { tc: 400, pc: 40 * BAR, acentric: 0.1 };
  for (const id of CUBIC_EOS_IDS) {
    const eos = CUBIC_EOS[id];
    const { A, B } = dimensionless(pureParameters(eos, c, c.tc), c.tc, c.pc);
    const roots = compressibilityRoots(eos, A, B);
    assert.ok(
      roots.every((z) => Math.abs(z - eos.zc) < 1e-4),
      `${id}: ${roots} vs ${eos.zc}`,
    );
  }
});

test('ideal-gas limit: at 1 Pa, Z and φ are 1 within 1e-6 for every equation', () => {
  for (const id of CUBIC_EOS_IDS) {
    const s = pureState(CUBIC_EOS[id], { tc: 369.8, pc: 42.49 * BAR, acentric: 0.152 }, 400, 1);
    assert.equal(s.zRoots.length, 1, id);
    assert.ok(Math.abs(s.single!.z - 1) < 1e-6, `${id}: Z = ${s.single?.z}`);
    assert.ok(Math.abs(s.single!.lnPhi) < 1e-6, `${id}: ln φ = ${s.single?.lnPhi}`);
    assert.equal(s.label, 'vapor');
  }
});

test('ln φ equals ∫ (Z − 1)/P dP along the isotherm (Simpson, 4000 intervals; abs. tol. 1e-6)', () => {
  // Methane (Poling et al.: 190.56 K, 45.99 bar, ω 0.011) at 250 K: one root at every pressure up to 150 bar.
  const methane: CriticalConstants = { tc: 190.56, pc: 45.99 * BAR, acentric: 0.011 };
  const t = 250;
  const p = 150 * BAR;
  for (const id of CUBIC_EOS_IDS) {
    const eos = CUBIC_EOS[id];
    const integrand = (pressure: number) => {
      const { A, B } = dimensionless(pureParameters(eos, methane, t), t, pressure);
      const roots = compressibilityRoots(eos, A, B);
      return (roots[roots.length - 1] - 1) / pressure;
    };
    const n = 4000;
    const h = (p - 1) / n;
    let sum = integrand(1) + integrand(p);
    for (let k = 1; k < n; k++) sum += (k % 2 ? 4 : 2) * integrand(1 + k * h);
    const s = pureState(eos, methane, t, p);
    assert.ok(Math.abs(s.single!.lnPhi - (h / 3) * sum) < 1e-6, `${id}: ${s.single?.lnPhi} vs ${(h / 3) * sum}`);
  }
});

test('phase labels of single roots: supercritical above Tc and Pc, compressed liquid, gas above Tc', () => {
  const pr = CUBIC_EOS.peng_robinson;
  const propane: CriticalConstants = { tc: 369.8, pc: 42.49 * BAR, acentric: 0.152 };
  assert.equal(pureState(pr, propane, 400, 60 * BAR).label, 'supercritical');
  assert.equal(pureState(pr, propane, 300, 60 * BAR).label, 'liquid');
  assert.equal(pureState(pr, propane, 300, 100 * BAR).single !== undefined, true);
  assert.equal(pureState(pr, propane, 400, 5 * BAR).label, 'vapor');
  const nearCritical = pureState(pr, propane, 372, 43 * BAR);
  assert.match(nearCritical.warnings.join(' '), /Near the critical point/);
});

test('a Soave α past its minimum (√Tr > 1 + 1/m) is flagged, for pure fluids and mixtures', () => {
  const c: CriticalConstants = { tc: 100, pc: 40 * BAR, acentric: 0.3 }; // PR: m = 0.8120, minimum at Tr = 4.96
  assert.deepEqual(pureState(CUBIC_EOS.peng_robinson, c, 450, 1 * BAR).warnings, []);
  assert.match(
    pureState(CUBIC_EOS.peng_robinson, c, 550, 1 * BAR).warnings.join(' '),
    /α function has passed its minimum/,
  );
  assert.match(
    mixtureState(
      CUBIC_EOS.srk,
      [c, c],
      [0.5, 0.5],
      [
        [0, 0],
        [0, 0],
      ],
      550,
      1 * BAR,
    ).warnings.join(' '),
    /passed its minimum/,
  );
  assert.deepEqual(pureState(CUBIC_EOS.redlich_kwong, c, 550, 1 * BAR).warnings, []);
});

test('the mixture fugacity coefficient of a pure component (x = 1) is the pure-fluid one', () => {
  const propane: CriticalConstants = { tc: 369.8, pc: 42.49 * BAR, acentric: 0.152 };
  for (const id of CUBIC_EOS_IDS) {
    const eos = CUBIC_EOS[id];
    const pure = pureState(eos, propane, 320, 5 * BAR);
    const mix = mixtureState(eos, [propane], [1], [[0]], 320, 5 * BAR);
    assert.deepEqual(mix.zRoots, pure.zRoots);
    for (const phase of ['liquid', 'vapor', 'single'] as const) {
      assert.equal(mix[phase] === undefined, pure[phase] === undefined, `${id} ${phase}`);
      if (pure[phase])
        assert.ok(Math.abs(mix[phase]!.lnPhiComponents[0] - pure[phase]!.lnPhi) < 1e-12, `${id} ${phase}`);
    }
    // Splitting one fluid into two identical "components" changes nothing either.
    const split = mixtureState(
      eos,
      [propane, propane],
      [0.3, 0.7],
      [
        [0, 0],
        [0, 0],
      ],
      320,
      5 * BAR,
    );
    const vapor = (pure.vapor ?? pure.single)!.lnPhi;
    for (const lnPhi of (split.vapor ?? split.single)!.lnPhiComponents) assert.ok(Math.abs(lnPhi - vapor) < 1e-12, id);
  }
});

test('mixture ln φ_k is the partial molar derivative ∂(n·G^R/RT)/∂n_k (central differences, kij ≠ 0; abs. tol. 1e-7)', () => {
  const components: CriticalConstants[] = [
    { tc: 190.56, pc: 45.99 * BAR, acentric: 0.011 },
    { tc: 305.32, pc: 48.72 * BAR, acentric: 0.099 },
    { tc: 425.12, pc: 37.96 * BAR, acentric: 0.2 },
  ];
  const kij = [
    [0, 0.003, 0.02],
    [0.003, 0, 0.01],
    [0.02, 0.01, 0],
  ];
  const t = 300;
  const p = 30 * BAR;
  for (const id of CUBIC_EOS_IDS) {
    const eos = CUBIC_EOS[id];
    const totalResidualGibbs = (moles: number[]) => {
      const n = moles.reduce((s, m) => s + m, 0);
      const params = mixtureParameters(
        eos,
        components,
        moles.map((m) => m / n),
        kij,
        t,
      );
      const { A, B } = dimensionless(params, t, p);
      const roots = compressibilityRoots(eos, A, B);
      return n * lnFugacityCoefficient(eos, roots[roots.length - 1], A, B);
    };
    const moles = [0.5, 0.3, 0.2];
    const params = mixtureParameters(eos, components, moles, kij, t);
    const { A, B } = dimensionless(params, t, p);
    const roots = compressibilityRoots(eos, A, B);
    const analytic = lnFugacityCoefficientsInMixture(eos, roots[roots.length - 1], A, B, params);
    const h = 1e-5;
    analytic.forEach((lnPhi, k) => {
      const up = moles.map((m, i) => (i === k ? m + h : m));
      const down = moles.map((m, i) => (i === k ? m - h : m));
      const numeric = (totalResidualGibbs(up) - totalResidualGibbs(down)) / (2 * h);
      assert.ok(Math.abs(lnPhi - numeric) < 1e-7, `${id} component ${k}: ${lnPhi} vs ${numeric}`);
    });
  }
});

test('mixture with three roots: the root of lower Gibbs energy is named, as liquid-like or vapor-like', () => {
  const pr = CUBIC_EOS.peng_robinson;
  const propane: CriticalConstants = { tc: 369.8, pc: 42.49 * BAR, acentric: 0.152 };
  const butane: CriticalConstants = { tc: 425.1, pc: 37.96 * BAR, acentric: 0.2 };
  const s = mixtureState(
    pr,
    [propane, butane],
    [0.5, 0.5],
    [
      [0, 0],
      [0, 0],
    ],
    300,
    1 * BAR,
  );
  assert.equal(s.zRoots.length, 3);
  assert.equal(s.label, 'vapor-like');
  const liquid = mixtureState(
    pr,
    [propane, butane],
    [0.5, 0.5],
    [
      [0, 0],
      [0, 0],
    ],
    300,
    50 * BAR,
  );
  assert.equal(liquid.label, 'liquid');
});

test("Kay's rule, 50/50 methane/ethane (Poling et al. Tc, Pc): Tpc 247.94 K, Ppc 47.355 bar", () => {
  const { tpc, ppc } = kayPseudoCritical(
    [
      { tc: 190.56, pc: 45.99 },
      { tc: 305.32, pc: 48.72 },
    ],
    [0.5, 0.5],
  );
  assert.ok(Math.abs(tpc - 247.94) < 1e-9);
  assert.ok(Math.abs(ppc - 47.355) < 1e-9);
});

test('mass density from molar volume and molar mass: 44.097 g/mol at 0.0243660 m3/mol is 1.80978 kg/m3', () => {
  assert.ok(Math.abs(massDensity(0.024366, 44.097) - 1.80978) < 1e-5);
});
