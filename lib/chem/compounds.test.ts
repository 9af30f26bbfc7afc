/**
 * Guards on the built-in compound data. Each check lists every offending compound, so a bad edit
 * to a data file shows all its consequences at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { smilesElementCounts } from '../../test/support/smiles-element-counts.ts';
import { isValidCas } from './cas.ts';
import { allCompounds, type Compound, loadCompounds } from './compounds.ts';
import { hillFormula, molarMass, parseFormula } from './formula.ts';
import { normalizeKey } from './lookup.ts';
import { PROPERTY_DEFINITIONS, type PropertyKey } from './properties.ts';

const compounds = allCompounds();
const R = 8.314462618; // J/(mol·K), CODATA 2018 (exact since the 2019 SI)
const value = (c: Compound, key: PropertyKey) => c.properties[key]?.value;

function expectNone(problems: string[]) {
  assert.deepEqual(problems, [], problems.join('\n'));
}

test('the starter set holds at least 25 compounds', () => {
  assert.ok(compounds.length >= 25, `${compounds.length}`);
});

test('CAS numbers are well formed and their check digits are right', () => {
  expectNone(compounds.filter((c) => !isValidCas(c.cas)).map((c) => `${c.name}: ${c.cas}`));
});

test('no name, synonym, CAS number or InChIKey is used twice, even after normalisation', () => {
  const owner = new Map<string, string>();
  const problems: string[] = [];
  for (const c of compounds) {
    for (const text of [c.name, ...c.synonyms, c.cas, ...(c.inchikey ? [c.inchikey] : [])]) {
      const key = normalizeKey(text);
      const previous = owner.get(key);
      if (previous !== undefined) problems.push(`"${text}" of ${c.name} repeats a key of ${previous}`);
      owner.set(key, c.name);
    }
  }
  expectNone(problems);
});

test('formulas are well-formed Hill formulas', () => {
  expectNone(
    compounds
      .filter((c) => {
        const counts = parseFormula(c.formula);
        return !counts || hillFormula(counts) !== c.formula;
      })
      .map((c) => `${c.name}: ${c.formula}`),
  );
});

test('formula agrees with the SMILES, and molecular weight with the formula (IUPAC 2021 weights, 0.01 g/mol)', () => {
  const problems: string[] = [];
  for (const c of compounds) {
    const fromSmiles = smilesElementCounts(c.smiles);
    if (hillFormula(fromSmiles) !== c.formula)
      problems.push(`${c.name}: SMILES ${c.smiles} is ${hillFormula(fromSmiles)}, formula says ${c.formula}`);
    const mw = value(c, 'molecular_weight');
    if (mw === undefined || Math.abs(mw - molarMass(fromSmiles)) > 0.01)
      problems.push(`${c.name}: molecular weight ${mw} vs ${molarMass(fromSmiles)}`);
  }
  expectNone(problems);
});

test('InChIKeys, where given, have the standard shape', () => {
  expectNone(
    compounds
      .filter((c) => c.inchikey !== undefined && !/^[A-Z]{14}-[A-Z]{8}SA-[A-Z]$/.test(c.inchikey))
      .map((c) => c.name),
  );
});

test('every compound has a Simplified Chinese name among its synonyms', () => {
  expectNone(compounds.filter((c) => !c.synonyms.some((s) => /\p{Script=Han}/u.test(s))).map((c) => c.name));
});

test('every value carries the catalogue unit and a citation', () => {
  const problems: string[] = [];
  for (const c of compounds) {
    for (const [key, v] of Object.entries(c.properties)) {
      if (v.unit !== PROPERTY_DEFINITIONS[key as PropertyKey].unit) problems.push(`${c.name}.${key}: unit ${v.unit}`);
      if (v.source.length < 20) problems.push(`${c.name}.${key}: source "${v.source}" is not a citation`);
    }
  }
  expectNone(problems);
});

test('Tm < Tb < Tc; a substance that sublimes at 1 atm has no Tb and Tsub < Ttriple < Tc, both explained', () => {
  const problems: string[] = [];
  for (const c of compounds) {
    const [tm, tb, tsub, tc] = (
      ['melting_point', 'normal_boiling_point', 'sublimation_point', 'critical_temperature'] as const
    ).map((k) => value(c, k));
    if (tsub !== undefined) {
      if (tb !== undefined) problems.push(`${c.name}: has both a boiling and a sublimation point`);
      if (!c.properties.sublimation_point?.note) problems.push(`${c.name}: sublimation point without a note`);
      if (tm !== undefined && !/triple/i.test(c.properties.melting_point?.note ?? ''))
        problems.push(`${c.name}: melting point is not labelled as the triple point`);
    }
    const chain = [tsub, tm, tb, tc].filter((t): t is number => t !== undefined);
    if (chain.some((t, i) => i > 0 && t <= chain[i - 1]))
      problems.push(`${c.name}: temperatures out of order: Tsub ${tsub}, Tm ${tm}, Tb ${tb}, Tc ${tc}`);
  }
  expectNone(problems);
});

test('Zc agrees with Pc·Vc/(R·Tc) within 5%', () => {
  const problems: string[] = [];
  for (const c of compounds) {
    const [tc, pc, vc, zc] = (
      ['critical_temperature', 'critical_pressure', 'critical_volume', 'critical_compressibility'] as const
    ).map((k) => value(c, k));
    if (tc === undefined || pc === undefined || vc === undefined || zc === undefined) continue;
    const computed = (pc * 1e5 * vc * 1e-6) / (R * tc); // bar → Pa, cm3/mol → m3/mol
    if (Math.abs(zc - computed) / computed > 0.05)
      problems.push(`${c.name}: Zc ${zc}, Pc·Vc/(R·Tc) = ${computed.toFixed(4)}`);
  }
  expectNone(problems);
});

test('acentric factors lie between -0.5 and 1.5', () => {
  expectNone(
    compounds
      .filter((c) => {
        const w = value(c, 'acentric_factor');
        return w !== undefined && !(w >= -0.5 && w <= 1.5);
      })
      .map((c) => `${c.name}: ${value(c, 'acentric_factor')}`),
  );
});

test('the loader refuses malformed data instead of serving it', () => {
  const sources = { book: 'A. Author, A Handbook of Constants, 1st ed., Publisher, 2000' };
  const base = { name: 'x', cas: '64-17-5', formula: 'C2H6O', smiles: 'CCO', synonyms: [] };
  const load = (compound: object) => loadCompounds({ 'test.json': { compounds: [compound] } }, sources);
  const tc = { value: 500, unit: 'K', source: 'book' };
  assert.equal(
    load({ ...base, properties: { critical_temperature: tc } })[0].properties.critical_temperature?.source,
    sources.book,
  );
  assert.throws(
    () => load({ ...base, properties: { critical_temperature: { ...tc, unit: '°C' } } }),
    /unit must be "K"/,
  );
  assert.throws(
    () => load({ ...base, properties: { critical_temperature: { ...tc, source: 'nowhere' } } }),
    /unknown source/,
  );
  assert.throws(() => load({ ...base, properties: { critical_temperature: { ...tc, value: null } } }), /finite number/);
  assert.throws(() => load({ ...base, properties: { boiling_temperature: tc } }), /unknown property/);
  assert.throws(
    () => load({ ...base, properties: { molecular_weight: { value: 46, unit: 'g/mol', source: 'book' } } }),
    /computed/,
  );
  assert.throws(() => load({ ...base, formula: 'C2H6Q', properties: {} }), /does not parse/);
  assert.throws(() => load({ ...base, colour: 'none', properties: {} }), /unknown field/);
});
