/**
 * Cross-check of our compound data's constants against the shipped ChemSep database.
 * ChemSep is a second opinion here, not the source of these values: a disagreement beyond tolerance
 * means one of the two is wrong. Either our value gets fixed from the literature we cite, or it is
 * listed with its reason in data/chemsep-crosscheck.json.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { chemsepFile } from '../chem/chemsep-layer.ts';
import { parseChemSepXml } from '../chem/chemsep-xml.ts';
import { allCompounds } from '../chem/compounds.ts';
import justifications from '../chem/data/chemsep-crosscheck.json' with { type: 'json' };
import sources from '../chem/data/sources.json' with { type: 'json' };
import type { PropertyKey } from '../chem/properties.ts';

/**
 * Tolerances: 1% for temperatures and Pc (compilations agree to a few tenths of a percent), 3% for
 * Vc and Zc (critical densities are measured less well), 0.02 for ω (its usual spread between
 * vapour-pressure fits), 0.02 g/mol for molecular weight (atomic-weight revisions).
 */
const TOLERANCES: Partial<Record<PropertyKey, { relative?: number; absolute?: number }>> = {
  critical_temperature: { relative: 0.01 },
  critical_pressure: { relative: 0.01 },
  critical_volume: { relative: 0.03 },
  critical_compressibility: { relative: 0.03 },
  acentric_factor: { absolute: 0.02 },
  normal_boiling_point: { relative: 0.01 },
  melting_point: { relative: 0.01 },
  molecular_weight: { absolute: 0.02 },
};

interface Disagreement {
  compound: string;
  cas: string;
  property: PropertyKey;
  ours: number;
  theirs: number;
}

test('our data agrees with ChemSep within tolerance, or the disagreement is justified', (t) => {
  const chemsep = new Map(parseChemSepXml(readFileSync(chemsepFile(), 'utf8')).records.map((r) => [r.cas, r]));
  const disagreements: Disagreement[] = [];
  let compared = 0;

  for (const c of allCompounds()) {
    const record = chemsep.get(c.cas);
    if (!record) {
      t.diagnostic(`${c.name} (${c.cas}): not in ChemSep`);
      continue;
    }
    for (const [property, tolerance] of Object.entries(TOLERANCES) as [
      PropertyKey,
      { relative?: number; absolute?: number },
    ][]) {
      // ChemSep files the 1-atm sublimation temperature under boiling point; so do many tables.
      const ours =
        c.properties[property]?.value ??
        (property === 'normal_boiling_point' ? c.properties.sublimation_point?.value : undefined);
      const theirs = record.values[property];
      if (ours === undefined || theirs === undefined) continue;
      compared++;
      const off =
        tolerance.relative !== undefined
          ? Math.abs(ours - theirs) / Math.abs(theirs) > tolerance.relative
          : Math.abs(ours - theirs) > tolerance.absolute!;
      if (off) disagreements.push({ compound: c.name, cas: c.cas, property, ours, theirs });
    }
  }
  t.diagnostic(
    `compared ${compared} values of ${allCompounds().length} compounds; ${disagreements.length} beyond tolerance`,
  );
  assert.ok(compared >= 1800, `only ${compared} values compared with ChemSep`);

  const unexplained: string[] = [];
  for (const d of disagreements) {
    const entry = justifications.justified.find((j) => j.cas === d.cas && j.property === d.property);
    const line = `${d.compound} ${d.property}: ours ${d.ours}, ChemSep ${+d.theirs.toPrecision(6)}`;
    if (!entry) {
      unexplained.push(`${line} (fix it from the literature, or justify it in data/chemsep-crosscheck.json)`);
      continue;
    }
    const citation = (sources as Record<string, string>)[entry.source];
    const served = allCompounds().find((c) => c.cas === d.cas)?.properties[d.property]?.source;
    if (citation === undefined || citation !== served)
      unexplained.push(`${line}: justification names source "${entry.source}", but the value cites ${served}`);
    else t.diagnostic(`justified: ${line}: ${entry.reason}`);
  }
  const stale = justifications.justified
    .filter((j) => !disagreements.some((d) => d.cas === j.cas && d.property === j.property))
    .map((j) => `${j.compound} ${j.property}: justified but no longer disagrees; remove the entry`);

  assert.deepEqual([...unexplained, ...stale], [], [...unexplained, ...stale].join('\n'));
});
