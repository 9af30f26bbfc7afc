/**
 * Guards the temperature-dependent correlations in the compound data (data/compounds, forms in
 * ./correlations.ts): each must agree with the compound's own constants and with physics, and with
 * the shipped ChemSep database's equations as a second opinion.
 * Every failure lists every offender, so one run shows all there is to fix.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { chemSepAt } from '../../test/support/chemsep-equations.ts';
import { chemsepFile } from './chemsep-layer.ts';
import { parseChemSepXml } from './chemsep-xml.ts';
import { allCompounds, type Compound } from './compounds.ts';
import { R } from './constants.ts';
import type { HeatCapacityCorrelation, VaporPressureCorrelation } from './correlations.ts';
import justifications from './data/correlation-crosscheck.json' with { type: 'json' };
import sources from './data/sources.json' with { type: 'json' };
import { parseFormula } from './formula.ts';
import { polynomialHeatCapacity } from './ideal-gas.ts';
import { antoinePressure, wagnerPressure } from './vapor-pressure.ts';

const ATMOSPHERE = 101_325;
const BAR = 1e5;

/** P(Tb) must be 1 atm within this fraction: vapour-pressure fits reproduce the normal boiling point far better. */
const BOILING_POINT_TOLERANCE = 0.03;
/** Points per range in the shape checks. */
const SAMPLES = 50;

const fmt = (x: number) => String(+x.toPrecision(5));
const describeRange = (c: { valid_range: { min: number; max: number } }) =>
  `${c.valid_range.min}–${c.valid_range.max} K`;

/** Vapour pressure (Pa) of a stored correlation at t (K); Wagner past its own Tc is NaN (an offence). */
function pressureOf(c: VaporPressureCorrelation, t: number): number {
  if (c.equation === 'antoine') return antoinePressure(c.coefficients, t);
  return t > c.critical_temperature
    ? NaN
    : wagnerPressure(c.coefficients, c.critical_temperature, c.critical_pressure * BAR, t);
}

/** SAMPLES + 1 temperatures from min to max, both ends exact (a range may end at a Wagner equation's own Tc). */
function samples(min: number, max: number): number[] {
  return Array.from({ length: SAMPLES + 1 }, (_, i) => (i === SAMPLES ? max : min + ((max - min) * i) / SAMPLES));
}

function vaporPressureCorrelations(): { compound: Compound; correlation: VaporPressureCorrelation; label: string }[] {
  return allCompounds().flatMap((compound) =>
    (compound.correlations?.vapor_pressure ?? []).map((correlation) => ({
      compound,
      correlation,
      label: `${compound.name} ${correlation.equation} (${describeRange(correlation)})`,
    })),
  );
}

test(`every vapour-pressure correlation whose range holds the normal boiling point gives 101.325 kPa ± ${BOILING_POINT_TOLERANCE * 100}% there`, (t) => {
  const offenders: string[] = [];
  let checked = 0;
  for (const { compound, correlation, label } of vaporPressureCorrelations()) {
    const tb = compound.properties.normal_boiling_point?.value;
    if (tb === undefined || tb < correlation.valid_range.min || tb > correlation.valid_range.max) continue;
    checked++;
    const p = pressureOf(correlation, tb);
    if (!(Math.abs(p - ATMOSPHERE) <= BOILING_POINT_TOLERANCE * ATMOSPHERE)) {
      offenders.push(
        `${label}: P(Tb = ${tb} K) = ${fmt(p / 1000)} kPa (${fmt((100 * (p - ATMOSPHERE)) / ATMOSPHERE)}%)`,
      );
    }
  }
  t.diagnostic(`${checked} correlations checked at the normal boiling point`);
  assert.deepEqual(
    offenders,
    [],
    `Correlations that miss 1 atm at the compound's normal boiling point (fix the coefficients, their form or Tb):\n${offenders.join('\n')}`,
  );
});

test('every vapour-pressure correlation gives a positive, finite pressure rising with temperature across its range', (t) => {
  const offenders: string[] = [];
  const correlations = vaporPressureCorrelations();
  for (const { correlation, label } of correlations) {
    const { min, max } = correlation.valid_range;
    let previous = 0;
    for (const temperature of samples(min, max)) {
      const p = pressureOf(correlation, temperature);
      if (!(Number.isFinite(p) && p > 0)) {
        offenders.push(
          `${label}: P(${fmt(temperature)} K) = ${p}${correlation.equation === 'wagner_25_5' && temperature > correlation.critical_temperature ? ` (range passes its own Tc ${correlation.critical_temperature} K)` : ''}`,
        );
        break;
      }
      if (!(p > previous)) {
        offenders.push(`${label}: P falls to ${fmt(p)} Pa at ${fmt(temperature)} K`);
        break;
      }
      previous = p;
    }
  }
  t.diagnostic(`${correlations.length} correlations checked over ${SAMPLES + 1} points each`);
  assert.deepEqual(
    offenders,
    [],
    `Vapour-pressure correlations that are not positive, finite and increasing over their stated range:\n${offenders.join('\n')}`,
  );
});

/**
 * Physical bounds on the ideal-gas Cp°/R of a molecule of N atoms: at least 5/2 (translation alone,
 * a monatomic gas) and, at 298.15 K, at least 7/2 for N ≥ 2 (translation and rotation of a linear
 * molecule; 2% allowed for hydrogen, whose rotation is not fully classical at room temperature);
 * at most the classical limit with every vibration excited, 3N − 3/2 (linear; nonlinear 3N − 2),
 * plus 5% for anharmonicity, electronic excitation and fitting error. Cp is not monotonic in T for
 * every gas (H2, O2, NO), so its shape is not checked beyond these bounds.
 */
function cpBounds(compound: Compound): { atoms: number; lowest: number; at298: number; highest: number } | undefined {
  const counts = parseFormula(compound.formula);
  if (!counts) return undefined;
  const atoms = Object.values(counts).reduce((s, n) => s + n, 0);
  return {
    atoms,
    lowest: 2.5 * 0.99,
    at298: (atoms === 1 ? 2.5 : 3.5) * 0.98,
    highest: Math.max(2.5, 3 * atoms - 1.5) * 1.05,
  };
}

test('every ideal-gas Cp° polynomial lies within physical bounds at 298.15 K and across its range', (t) => {
  const offenders: string[] = [];
  let checked = 0;
  for (const compound of allCompounds()) {
    const cp = compound.correlations?.ideal_gas_cp;
    if (!cp) continue;
    const bounds = cpBounds(compound);
    if (!bounds) {
      offenders.push(`${compound.name}: formula ${compound.formula} does not parse`);
      continue;
    }
    checked++;
    const label = `${compound.name} (${compound.formula}, ${bounds.atoms} atoms) cp_poly4 (${describeRange(cp)})`;
    const at298 = polynomialHeatCapacity(cp.coefficients, 298.15) / R;
    if (!(at298 >= bounds.at298 && at298 <= bounds.highest)) {
      offenders.push(`${label}: Cp°/R(298.15 K) = ${fmt(at298)}, outside ${fmt(bounds.at298)}–${fmt(bounds.highest)}`);
      continue;
    }
    for (const temperature of samples(cp.valid_range.min, cp.valid_range.max)) {
      const value = polynomialHeatCapacity(cp.coefficients, temperature) / R;
      if (!(value >= bounds.lowest && value <= bounds.highest)) {
        offenders.push(
          `${label}: Cp°/R(${fmt(temperature)} K) = ${fmt(value)}, outside ${fmt(bounds.lowest)}–${fmt(bounds.highest)}`,
        );
        break;
      }
    }
  }
  t.diagnostic(`${checked} Cp° polynomials checked`);
  assert.deepEqual(
    offenders,
    [],
    `Ideal-gas Cp° polynomials outside physical bounds (check the scaling of the coefficients: a1 not a1·10³, and that they are Cp°/R, not Cp° in J/(mol·K)):\n${offenders.join('\n')}`,
  );
});

/**
 * Tolerances: 5% on Cp°(298.15 K): ideal-gas heat capacities rest on the same spectroscopic and
 * calorimetric data, but ChemSep's equation-16 fits span up to 1500 K and at room temperature can
 * stray 3–4% from it (diethyl ether: 115.9 J/(mol·K) against 119.5 measured); 5% on the vapour
 * pressure at the middle of our equation's range (independent fits of good data agree within a few
 * percent away from their ends).
 */
const CP_TOLERANCE = 0.05;
const PSAT_TOLERANCE = 0.05;
const CP_TEMPERATURE = 298.15;

interface Justification {
  compound: string;
  cas: string;
  correlation: 'ideal_gas_cp' | 'vapor_pressure';
  equation?: string;
  valid_range?: { min: number; max: number };
  source: string;
  reason: string;
}

interface Disagreement {
  compound: Compound;
  correlation: HeatCapacityCorrelation | VaporPressureCorrelation;
  kind: 'ideal_gas_cp' | 'vapor_pressure';
  line: string;
}

function justifies(j: Justification, d: Disagreement): boolean {
  if (j.cas !== d.compound.cas || j.correlation !== d.kind) return false;
  if (d.kind === 'ideal_gas_cp') return true;
  return (
    j.equation === d.correlation.equation &&
    j.valid_range?.min === d.correlation.valid_range.min &&
    j.valid_range?.max === d.correlation.valid_range.max
  );
}

test("our correlations agree with ChemSep's within tolerance, or the disagreement is justified", (t) => {
  const xml = readFileSync(chemsepFile(), 'utf8');
  const chemsep = new Map(parseChemSepXml(xml).records.map((r) => [r.cas, r]));
  // The forms above, checked where the answer is known: water boils at 373.124 K at 101.325 kPa
  // (IAPWS-95), and its ideal-gas Cp° at 298.15 K is 33.58 J/(mol·K) (NIST-JANAF).
  const water = chemsep.get('7732-18-5');
  assert.ok(water, 'ChemSep lists water');
  const p = chemSepAt(water.equations, ['VaporPressure'], 'Pa', 373.124);
  const cp = chemSepAt(water.equations, ['IdealGasHeatCapacityCp'], 'J/kmol/K', 298.15);
  assert.ok(
    p && Math.abs(p.value - ATMOSPHERE) / ATMOSPHERE < 0.01,
    `ChemSep water vapour pressure at 373.124 K: ${p?.value} Pa (eq. ${p?.eqno})`,
  );
  assert.ok(
    cp && Math.abs(cp.value / 1000 - 33.58) < 0.3,
    `ChemSep water Cp° at 298.15 K: ${cp && cp.value / 1000} J/(mol·K) (eq. ${cp?.eqno})`,
  );

  const disagreements: Disagreement[] = [];
  let compared = 0;
  for (const compound of allCompounds()) {
    const record = chemsep.get(compound.cas);
    const correlations = compound.correlations;
    if (!record || !correlations) continue;

    const cp = correlations.ideal_gas_cp;
    if (cp && CP_TEMPERATURE >= cp.valid_range.min && CP_TEMPERATURE <= cp.valid_range.max) {
      const theirs = chemSepAt(
        record.equations,
        ['IdealGasHeatCapacityCp', 'RPPHeatCapacityCp'],
        'J/kmol/K',
        CP_TEMPERATURE,
      );
      if (theirs) {
        compared++;
        const ours = polynomialHeatCapacity(cp.coefficients, CP_TEMPERATURE);
        const their = theirs.value / 1000;
        if (Math.abs(ours - their) > CP_TOLERANCE * their) {
          disagreements.push({
            compound,
            correlation: cp,
            kind: 'ideal_gas_cp',
            line: `${compound.name} ideal_gas_cp: Cp°(298.15 K) ours ${fmt(ours)}, ChemSep ${fmt(their)} J/(mol·K) (${theirs.tag}, eq. ${theirs.eqno}; ${fmt((100 * (ours - their)) / their)}%)`,
          });
        }
      }
    }

    for (const vp of correlations.vapor_pressure ?? []) {
      const middle = (vp.valid_range.min + vp.valid_range.max) / 2;
      const theirs = chemSepAt(record.equations, ['VaporPressure', 'AntoineVaporPressure'], 'Pa', middle);
      if (!theirs) continue;
      compared++;
      const ours = pressureOf(vp, middle);
      if (!(Math.abs(ours - theirs.value) <= PSAT_TOLERANCE * theirs.value)) {
        disagreements.push({
          compound,
          correlation: vp,
          kind: 'vapor_pressure',
          line: `${compound.name} vapor_pressure ${vp.equation} (${describeRange(vp)}): P(${fmt(middle)} K) ours ${fmt(ours)} Pa, ChemSep ${fmt(theirs.value)} Pa (${theirs.tag}, eq. ${theirs.eqno}; ${fmt((100 * (ours - theirs.value)) / theirs.value)}%)`,
        });
      }
    }
  }
  t.diagnostic(`compared ${compared} correlations with ChemSep; ${disagreements.length} beyond tolerance`);
  assert.ok(compared >= 300, `only ${compared} correlations compared with ChemSep`);

  const entries = justifications.justified as Justification[];
  const unexplained: string[] = [];
  for (const d of disagreements) {
    const entry = entries.find((j) => justifies(j, d));
    if (!entry) {
      unexplained.push(`${d.line} (fix it from the literature, or justify it in data/correlation-crosscheck.json)`);
      continue;
    }
    const citation = (sources as Record<string, string>)[entry.source];
    if (citation === undefined || citation !== d.correlation.source)
      unexplained.push(
        `${d.line}: justification names source "${entry.source}", but the correlation cites ${d.correlation.source}`,
      );
    else t.diagnostic(`justified: ${d.line}: ${entry.reason}`);
  }
  const stale = entries
    .filter((j) => !disagreements.some((d) => justifies(j, d)))
    .map(
      (j) =>
        `${j.compound} ${j.correlation}${j.equation ? ` ${j.equation}` : ''}: justified but no longer disagrees; remove the entry`,
    );
  assert.deepEqual([...unexplained, ...stale], [], [...unexplained, ...stale].join('\n'));
});
