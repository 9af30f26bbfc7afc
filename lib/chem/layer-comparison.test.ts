import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ABOUT } from '../../scripts/data-layers.ts';
import type { Compound } from './compounds.ts';
import report from './data/layer-disagreements.json' with { type: 'json' };
import { type Disagreement, disagreementKey, LAYER_UNCERTAINTY, layerReport } from './layer-comparison.ts';
import { findCompound } from './lookup.ts';

const line = (d: Disagreement) =>
  `${d.compound} ${d.property} at ${d.temperature} K: ${d.values.map((v) => `${v.label} ${v.value}`).join(', ')} ${d.unit} (chain: ${d.chain.label})`;

test('every disagreement between data layers is in layer-disagreements.json, and every listed one still occurs', async () => {
  const fresh = await layerReport();
  const listed = new Map((report.disagreements as Disagreement[]).map((d) => [disagreementKey(d), d]));
  const found = new Map(fresh.disagreements.map((d) => [disagreementKey(d), d]));
  const unlisted = [...found].filter(([k]) => !listed.has(k)).map(([, d]) => `not listed: ${line(d)}`);
  const gone = [...listed].filter(([k]) => !found.has(k)).map(([, d]) => `no longer occurs: ${line(d)}`);
  // The chain's answer is part of what the report says: a change of method must show in it.
  const moved = [...found]
    .filter(([k, d]) => listed.has(k) && listed.get(k)!.chain.label !== d.chain.label)
    .map(
      ([k, d]) => `${k}: the chain now answers with ${d.chain.label}, the report says ${listed.get(k)!.chain.label}`,
    );
  const problems = [...unlisted, ...gone, ...moved];
  assert.deepEqual(problems, [], `${problems.join('\n')}\n(regenerate with npm run data:layers)`);
  // Values, chain answers and the reasons on record too: the report says what the data gives now.
  assert.deepEqual(report.disagreements, fresh.disagreements, 'values changed: npm run data:layers');
  assert.deepEqual(report.compared, fresh.compared, 'the counts of compared states changed: npm run data:layers');
  assert.deepEqual(report.cp_fits_against_alpha0, fresh.cp_fits_against_alpha0);
  assert.deepEqual(report.tolerances, LAYER_UNCERTAINTY, 'tolerances changed: npm run data:layers');
  assert.equal(report.about, ABOUT);
});

test('methane at 1000 K is listed: NASA-7 (which the chain answers with) lies 1.3 % above the Poling and ChemSep fits', () => {
  const entry = (report.disagreements as Disagreement[]).find(
    (d) => d.cas === '74-82-8' && d.property === 'ideal_gas_cp' && d.temperature === 1000,
  );
  assert.ok(entry);
  const value = (label: string) => entry.values.find((v) => v.label === label)?.value;
  assert.ok(Math.abs(value('NASA-7')! - 73.6) < 0.1);
  assert.ok(Math.abs(value('Poling polynomial')! - 72.7) < 0.1);
  assert.equal(entry.chain.label, 'NASA-7');
  assert.equal(entry.checked, undefined);
  // The reference equation's α⁰ ends at the equation's 625 K: not a layer at 1000 K.
  assert.equal(value('reference equation α⁰'), undefined);
});

test('a layer moved outside its uncertainty is caught, and agreement within it is not', async () => {
  const methane = findCompound('methane').compound;
  const cp = methane.correlations!.ideal_gas_cp!;
  const scaled = (factor: number): Compound => ({
    ...methane,
    correlations: {
      ...methane.correlations,
      ideal_gas_cp: { ...cp, coefficients: cp.coefficients.map((a) => a * factor) as typeof cp.coefficients },
    },
  });
  const at298 = (r: Awaited<ReturnType<typeof layerReport>>) =>
    r.disagreements.find((d) => d.property === 'ideal_gas_cp' && d.temperature === 298.15);
  assert.equal(at298(await layerReport([methane])), undefined);
  const off = at298(await layerReport([scaled(1.03)]));
  assert.ok(off, 'a Poling polynomial 3 % high at 298.15 K must disagree with α⁰, NASA-7 and ChemSep');
  assert.equal(off.chain.label, 'reference equation α⁰');
});

test("a disagreement of our own correlation already checked against its source carries that check's reason", () => {
  const chloroethane = (report.disagreements as Disagreement[]).find(
    (d) => d.compound === 'chloroethane' && d.property === 'ideal_gas_cp' && d.temperature === 298.15,
  );
  assert.match(chloroethane?.checked ?? '', /^Poling's polynomial gives Cp° = 62\.8/);
});
