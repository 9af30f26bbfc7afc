import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Compound } from '../lib/chem/compounds.ts';
import { findCompound } from '../lib/chem/lookup.ts';
import { compoundCoverage, coverageReport, formatReport, PROPERTIES } from './data-coverage.ts';

test('the coverage report counts every compound with a critical point once per property', async () => {
  const report = await coverageReport();
  for (const k of PROPERTIES) {
    const total = Object.values(report.byBasis[k]).reduce((a, b) => a + b, 0);
    assert.equal(total, report.withCriticalPoint, k);
  }
  assert.equal(report.allThreeMeasured + report.short.length, report.withCriticalPoint);
  assert.match(formatReport(report), /All three from measured data: \d+ of \d+ \(\d+\.\d %; goal ≥ 95 %\)/);
});

test('it classifies by the method the tools answer with: measured fits, estimates, nothing', async () => {
  const water = await compoundCoverage(findCompound('water').compound);
  assert.deepEqual(Object.values(water.basis).includes('estimate'), false);
  // Without its equations, ChemSep fits, Poling polynomial, ZRA and measured density, methane is estimated.
  const methane = findCompound('methane').compound;
  const properties = Object.fromEntries(
    Object.entries(methane.properties).filter(([k]) => k !== 'rackett_compressibility' && k !== 'liquid_density'),
  );
  const bare: Compound = { ...methane, cas: '0-00-0', correlations: undefined, properties };
  const estimated = await compoundCoverage(bare);
  assert.equal(estimated.basis.vapor_pressure, 'estimate');
  assert.equal(estimated.basis.liquid_density, 'estimate');
  assert.equal(estimated.basis.ideal_gas_cp, 'none'); // Joback has no group for CH4
});
