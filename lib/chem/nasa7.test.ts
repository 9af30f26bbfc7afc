import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chemSepAt } from '../../test/support/chemsep-equations.ts';
import { chemsepFile } from './chemsep-layer.ts';
import { parseChemSepXml } from './chemsep-xml.ts';
import { allCompounds } from './compounds.ts';
import { hillFormula, parseFormula } from './formula.ts';
import { polynomialHeatCapacity } from './ideal-gas.ts';
import { findCompound } from './lookup.ts';
import {
  allNasaPolynomials,
  NASA_SPECIES_MAPPING,
  NASA7_FILE_NAME,
  type Nasa7Polynomial,
  nasa7Enthalpy,
  nasa7Entropy,
  nasa7HeatCapacity,
  nasa7RangeAt,
  nasaDataDir,
  nasaPolynomialFor,
  nasaSpeciesOfCanteraYaml,
  readNasa7,
} from './nasa7.ts';
import { setChemDataDir } from './third-party-data.ts';

const DATA_FILE = join(nasaDataDir(), NASA7_FILE_NAME);

const within = (actual: number, expected: number, relative: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= relative * Math.abs(expected), `${what}: ${actual} vs ${expected}`);

const nitrogen = () => nasaPolynomialFor('7727-37-9') as Nasa7Polynomial;

// The worked example of nasa7.ts, against NIST-JANAF (as quoted in ideal-gas.ts): Cp°(298.15 K) =
// 29.124 J/(mol·K), H°(500) − H°(298.15) = 5.911 kJ/mol, S°(500) − S°(298.15) = 15.130 J/(mol·K).
test('worked example: N2 from 298.15 to 500 K reproduces JANAF', () => {
  const n2 = nitrogen();
  assert.equal(n2.species, 'N2');
  assert.equal(n2.note, 'TPIS78');
  assert.match(n2.source, /McBride, S\. Gordon, M\. A\. Reno.*NASA TM-4513.*Cantera/);
  within(nasa7HeatCapacity(n2, 298.15), 29.124, 0.0005, 'Cp°(298.15)');
  within(nasa7HeatCapacity(n2, 500), 29.58, 0.001, 'Cp°(500)');
  const dH = nasa7Enthalpy(n2, 500) - nasa7Enthalpy(n2, 298.15);
  const dS = nasa7Entropy(n2, 500) - nasa7Entropy(n2, 298.15);
  within(dH, 5911, 0.001, 'ΔH°');
  assert.ok(Math.abs(dS - 15.13) < 0.02, `ΔS° ${dS}`);
  // The arithmetic itself, to the digits of the comment: 5.915 kJ/mol, 15.139 J/(mol·K).
  assert.ok(Math.abs(dH - 5914.55) < 0.01, `ΔH° ${dH}`);
  assert.ok(Math.abs(dS - 15.1391) < 1e-4, `ΔS° ${dS}`);
  // An element in its reference state: H° = ΔfH° = 0 at 298.15 K on the NASA scale.
  assert.ok(Math.abs(nasa7Enthalpy(n2, 298.15)) < 1, `H°(298.15) ${nasa7Enthalpy(n2, 298.15)}`);
});

test('water: Cp°(298.15 K) = 33.58 J/(mol·K) (NIST-JANAF, as quoted in correlation-data.test.ts)', () => {
  within(nasa7HeatCapacity(nasaPolynomialFor('7732-18-5') as Nasa7Polynomial, 298.15), 33.58, 0.001, 'Cp°');
});

test('the range is chosen by T: the lower one up to Tmid inclusive, the end ranges beyond the ends', () => {
  const n2 = nitrogen();
  const [low, high] = n2.ranges;
  assert.equal(low.max, 1000);
  assert.equal(nasa7RangeAt(n2, 1000), low);
  assert.equal(nasa7RangeAt(n2, 1000.001), high);
  assert.equal(nasa7RangeAt(n2, 100), low);
  assert.equal(nasa7RangeAt(n2, 7000), high);
  const argon = nasaPolynomialFor('7440-37-1') as Nasa7Polynomial;
  assert.equal(argon.ranges.length, 1);
  within(nasa7HeatCapacity(argon, 3000), 2.5 * 8.31446261815324, 1e-12, 'Ar Cp° = 5R/2');
});

// Each range evaluated on its own at the common bound: the fits are constrained to meet there.
// H° is compared relative to max(|H°|, R·Tmid), since H° of a compound can pass near zero.
test('every stored fit is continuous at Tmid: Cp°, H°, S° within 1e-3 relative', () => {
  const offenders: string[] = [];
  let joints = 0;
  for (const p of allNasaPolynomials()) {
    for (let i = 1; i < p.ranges.length; i++) {
      joints++;
      const t = p.ranges[i].min;
      const low = { ...p, ranges: [p.ranges[i - 1]] };
      const high = { ...p, ranges: [p.ranges[i]] };
      const scale = { cp: 1, h: 8.31446261815324 * t, s: 1 };
      for (const [name, f] of [
        ['cp', nasa7HeatCapacity],
        ['h', nasa7Enthalpy],
        ['s', nasa7Entropy],
      ] as const) {
        const a = f(low, t);
        const b = f(high, t);
        if (Math.abs(a - b) > 1e-3 * Math.max(Math.abs(a), scale[name]))
          offenders.push(`${p.species} (${p.cas}) ${name} at ${t} K: ${a} vs ${b}`);
      }
    }
  }
  assert.ok(joints > 100, `${joints} joints`);
  assert.deepEqual(offenders, []);
});

test('every stored fit belongs to a catalogue compound; the eight common gases and named isomers are matched', () => {
  const byCas = new Map(allCompounds().map((c) => [c.cas, c]));
  const fits = allNasaPolynomials();
  assert.equal(fits.length, 110);
  for (const p of fits) {
    const compound = byCas.get(p.cas);
    assert.ok(compound, `${p.species}: no catalogue compound has CAS ${p.cas}`);
  }
  // Eight common gases, each by its plain formula species.
  const expected: Record<string, string> = {
    water: 'H2O',
    'carbon dioxide': 'CO2',
    ammonia: 'NH3',
    hydrogen: 'H2',
    'carbon monoxide': 'CO',
    'hydrogen sulfide': 'H2S',
    nitrogen: 'N2',
    methane: 'CH4',
  };
  for (const [name, species] of Object.entries(expected))
    assert.equal(nasaPolynomialFor(findCompound(name).compound.cas)?.species, species, name);
  // Isomers are matched by the structure the species name states.
  assert.equal(nasaPolynomialFor(findCompound('isobutane').compound.cas)?.species, 'C4H10,isobutane');
  assert.equal(nasaPolynomialFor(findCompound('cis-2-butene').compound.cas)?.species, 'C4H8,cis2-buten');
  assert.equal(nasaPolynomialFor(findCompound('dimethyl ether').compound.cas)?.species, 'CH3OCH3');
  // Names that do not say which isomer are left out: "C3H6O", "C4H6,butadiene", "C7H8O,cresol".
  for (const name of ['acetone', 'propanal', '1,3-butadiene', '1,2-butadiene', 'm-cresol'])
    assert.equal(nasaPolynomialFor(findCompound(name).compound.cas), undefined, name);
});

/**
 * Where NASA-7 and the Poling polynomial of the compound data differ by more than 2% (at 300–1000 K), with what
 * ChemSep says (the ChemSep comparison below). Each must stay below its bound and must still
 * disagree somewhere (else remove it).
 */
const POLING_DISAGREEMENTS: { cas: string; max: number; reason: string }[] = [
  { cas: '7664-39-3', max: 0.025, reason: 'HF: 2.1% at 900 K (NASA 29.83, Poling 29.21); no ChemSep value' },
  { cas: '463-82-1', max: 0.06, reason: 'neopentane: up to 5.4% at 1000 K; ChemSep (298.4) is with NASA (297.9)' },
  { cas: '115-10-6', max: 0.04, reason: 'dimethyl ether: up to 3.5% at 1000 K; ChemSep (141.9) is with NASA (141.4)' },
  { cas: '67-63-0', max: 0.035, reason: '2-propanol: up to 3.1% at 1000 K; ChemSep (191.4) is with Poling (190.5)' },
  {
    cas: '64-18-6',
    max: 0.25,
    reason:
      'formic acid: NASA (L 8/88) 45.8 at 300 K, Poling 53.6, 15–23% apart at 300–1000 K; no third value on record: unresolved',
  },
];

test('NASA-7 and the Poling polynomial agree within 2% at 300–1000 K where both exist, or the difference is listed', (t) => {
  const offenders: string[] = [];
  const listed = new Set<(typeof POLING_DISAGREEMENTS)[number]>();
  let compounds = 0;
  for (const compound of allCompounds()) {
    const p = nasaPolynomialFor(compound.cas);
    const poly = compound.correlations?.ideal_gas_cp;
    if (!p || !poly) continue;
    compounds++;
    const known = POLING_DISAGREEMENTS.find((d) => d.cas === compound.cas);
    for (let temperature = 300; temperature <= 1000; temperature += 100) {
      if (temperature < poly.valid_range.min || temperature > poly.valid_range.max) continue;
      const ours = nasa7HeatCapacity(p, temperature);
      const theirs = polynomialHeatCapacity(poly.coefficients, temperature);
      const deviation = Math.abs(ours - theirs) / theirs;
      if (deviation <= 0.02) continue;
      const line = `${compound.name} at ${temperature} K: NASA ${ours.toFixed(2)}, Poling ${theirs.toFixed(2)} J/(mol·K)`;
      if (known && deviation <= known.max) {
        listed.add(known);
        t.diagnostic(`listed: ${line}: ${known.reason}`);
      } else offenders.push(line);
    }
  }
  t.diagnostic(`compared ${compounds} compounds`);
  assert.ok(compounds >= 70, `${compounds} compounds`);
  const stale = POLING_DISAGREEMENTS.filter((d) => !listed.has(d)).map((d) => `no longer disagrees: ${d.reason}`);
  assert.deepEqual([...offenders, ...stale], []);
});

/**
 * Where NASA-7 and ChemSep differ by more than 2%, with what the repository's third value (the Poling
 * polynomial in the compound data) says. Each must stay within 4% and must still disagree (else remove it).
 */
const CHEMSEP_DISAGREEMENTS: { cas: string; temperature: number; reason: string }[] = [
  {
    cas: '106-97-8',
    temperature: 300,
    reason: 'n-butane: Poling gives 99.27, NASA 99.11; ChemSep (101.7) is the outlier',
  },
  {
    cas: '110-83-8',
    temperature: 300,
    reason: 'cyclohexene: Poling gives 102.16, NASA 102.14; ChemSep (105.2) is the outlier',
  },
  {
    cas: '110-83-8',
    temperature: 500,
    reason: 'cyclohexene: Poling gives 172.92, NASA 172.76; ChemSep (176.5) is the outlier',
  },
  {
    cas: '67-63-0',
    temperature: 1000,
    reason: '2-propanol: Poling gives 190.46, near ChemSep (191.4); NASA (196.4, L 9/88) is 3% higher, unresolved',
  },
  { cas: '100-42-5', temperature: 300, reason: 'styrene: 2.1%, no third value on record' },
  { cas: '10102-44-0', temperature: 300, reason: 'NO2: 2.2%, no third value on record' },
];

test("every stored fit agrees with ChemSep's ideal-gas Cp° within 2% at 300, 500 and 1000 K, or the difference is listed", (t) => {
  const chemsep = new Map(parseChemSepXml(readFileSync(chemsepFile(), 'utf8')).records.map((r) => [r.cas, r]));
  const offenders: string[] = [];
  const listed = new Set<(typeof CHEMSEP_DISAGREEMENTS)[number]>();
  let compared = 0;
  for (const p of allNasaPolynomials()) {
    const record = chemsep.get(p.cas);
    if (!record) continue;
    for (const temperature of [300, 500, 1000]) {
      const theirs = chemSepAt(
        record.equations,
        ['IdealGasHeatCapacityCp', 'RPPHeatCapacityCp'],
        'J/kmol/K',
        temperature,
      );
      if (!theirs) continue;
      compared++;
      const ours = nasa7HeatCapacity(p, temperature);
      const their = theirs.value / 1000;
      const deviation = Math.abs(ours - their) / their;
      if (deviation <= 0.02) continue;
      const line = `${p.species} (${p.cas}) at ${temperature} K: NASA ${ours.toFixed(2)}, ChemSep ${their.toFixed(2)} J/(mol·K) (${theirs.tag}, eq. ${theirs.eqno})`;
      const known = CHEMSEP_DISAGREEMENTS.find((d) => d.cas === p.cas && d.temperature === temperature);
      if (known && deviation <= 0.04) {
        listed.add(known);
        t.diagnostic(`listed: ${line}: ${known.reason}`);
      } else offenders.push(line);
    }
  }
  t.diagnostic(`compared ${compared} values`);
  assert.ok(compared > 200, `${compared} compared`);
  const stale = CHEMSEP_DISAGREEMENTS.filter((d) => !listed.has(d)).map((d) => `no longer disagrees: ${d.reason}`);
  assert.deepEqual([...offenders, ...stale], []);
});

test("every match of data/nasa-species.json has the compound's formula and its reason still holds", () => {
  const file = nasaSpeciesOfCanteraYaml(readFileSync(DATA_FILE, 'utf8')) as Record<
    string,
    { composition: Record<string, number> }
  >;
  const compounds = allCompounds();
  const byCas = new Map(compounds.map((c) => [c.cas, c]));
  const hill = (formula: string) => hillFormula(parseFormula(formula) ?? {});
  const problems: string[] = [];
  for (const [cas, { compound: name, species, why }] of Object.entries(NASA_SPECIES_MAPPING.species)) {
    const compound = byCas.get(cas);
    if (compound?.name !== name) problems.push(`${cas}: catalogue name ${compound?.name}, mapping says ${name}`);
    if (!compound) continue;
    const formula = hill(compound.formula);
    const composition = hillFormula(file[species].composition);
    if (composition !== formula) problems.push(`${species}: composition ${composition}, ${name} is ${formula}`);
    // "the catalogue's only compound of that formula" must stay true as the catalogue grows.
    const isomers = compounds.filter((c) => c.cas !== cas && hill(c.formula) === formula).map((c) => c.name);
    if (why.includes("catalogue's only compound") && isomers.length > 0)
      problems.push(
        `${species}: no longer the only ${formula}, now also ${isomers.join(', ')}: say which isomer it is`,
      );
  }
  assert.deepEqual(problems, []);
});

// On the NASA scale H°(298.15 K) = ΔfH°(298.15 K): a mismatched isomer would differ by tens of kJ/mol
// (acetaldehyde −166.2 vs ethylene oxide −52.6; cyclohexane −123.4 vs methylcyclopentane −106.2). The two
// largest differences found, CCl2F2 16 and acetonitrile 10 kJ/mol, are of data vintage (L12/77, L12/92).
test("H°(298.15 K) of every fit agrees with the catalogue's ΔfH° (ideal gas) within 20 kJ/mol", () => {
  const byCas = new Map(allCompounds().map((c) => [c.cas, c]));
  const offenders: string[] = [];
  let compared = 0;
  for (const p of allNasaPolynomials()) {
    const formation = byCas.get(p.cas)?.properties.enthalpy_of_formation_gas;
    if (!formation) continue;
    compared++;
    const h = nasa7Enthalpy(p, 298.15) / 1000;
    if (Math.abs(h - formation.value) > 20)
      offenders.push(`${p.species}: ${h.toFixed(1)} vs ${formation.value} kJ/mol`);
  }
  assert.ok(compared > 80, `${compared} compared`);
  assert.deepEqual(offenders, []);
});

test('the data folder can be set; where it holds no file, no compound has a fit', () => {
  const empty = mkdtempSync(join(tmpdir(), 'nasa7-'));
  try {
    setChemDataDir(empty);
    assert.equal(nasaPolynomialFor('7727-37-9'), undefined);
    assert.equal(allNasaPolynomials().length, 0);
  } finally {
    setChemDataDir(undefined);
    rmSync(empty, { recursive: true });
  }
  assert.equal(nasaPolynomialFor('7727-37-9')?.species, 'N2');
});

test('a malformed data file fails loudly', () => {
  const good = { min: 200, max: 1000, coefficients: [1, 2, 3, 4, 5, 6, 7] };
  const mapping = { source: 'id', species: { '1-00-0': { compound: 'x', species: 'X', why: 'test' } } };
  const file = (over: object) => ({ X: { composition: { X: 1 }, ranges: [good], note: ' n ', ...over } });
  const sources = { id: 'A citation' };
  const read = readNasa7(file({}), mapping, sources).get('1-00-0');
  assert.equal(read?.source, 'A citation');
  assert.equal(read?.note, 'n');
  assert.throws(() => readNasa7(file({}), { ...mapping, source: 'nope' }, sources), /unknown source/);
  assert.throws(() => readNasa7({ Y: file({}).X }, mapping, sources), /X \(matched to 1-00-0\): not in the file/);
  assert.throws(
    () => readNasa7(file({ ranges: [{ ...good, coefficients: [1, 2, 3, 4, 5, 6] }] }), mapping, sources),
    /seven finite coefficients/,
  );
  assert.throws(
    () =>
      readNasa7(file({ ranges: [good, { min: 1100, max: 6000, coefficients: good.coefficients }] }), mapping, sources),
    /does not start where/,
  );
});
