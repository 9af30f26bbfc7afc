/**
 * ChemSep XML as compounds to import. The small file below is written for this test in ChemSep's
 * structure; its compounds and numbers are made up. The real chemsep1.xml (the shipped data layer) must
 * import whole, minus the records that cannot be served.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { chemsepFile } from '../chem/chemsep-layer.ts';
import { readChemSepImport } from './chemsep-import.ts';
import { checkCompound } from './registration.ts';

const scalar = (tag: string, units: string, value: string | number) =>
  `<${tag} name="${tag}"  units="${units}"  value="${value}" />`;

function compound(fields: {
  name: string;
  cas?: string;
  structure?: string;
  smiles?: string;
  mw?: number;
  extra?: string;
}): string {
  return [
    '<compound>',
    `<CompoundID name="Name"  value="${fields.name}" />`,
    fields.structure === undefined ? '' : `<StructureFormula name="Structure"  value="${fields.structure}" />`,
    fields.mw === undefined ? '' : scalar('MolecularWeight', 'kg/kmol', fields.mw),
    fields.extra ?? '',
    fields.cas === undefined ? '' : `<CAS name="CAS number"  value="${fields.cas}" />`,
    fields.smiles === undefined ? '' : `<Smiles name="SMILES"  value="${fields.smiles}" />`,
    '</compound>',
  ].join('\n');
}

const TESTOLANE = compound({
  name: 'Testolane',
  cas: '1234-56-6',
  structure: 'CH3(CH2)6OH',
  smiles: 'CCCCCCCO',
  mw: 116.2,
  extra: [
    scalar('CriticalTemperature', 'K', 601.5),
    scalar('CriticalPressure', 'Pa', 3025000),
    scalar('CriticalVolume', 'm3/kmol', 0.43),
    scalar('CriticalCompressibility', '_', 0.26),
    scalar('AcentricityFactor', '_', 0.55),
    scalar('NormalBoilingPointTemperature', 'K', 449.8),
    scalar('NormalMeltingPointTemperature', 'K', 239.2),
    scalar('HeatOfFormation', 'J/kmol', '-3.3E+08'),
    scalar('GibbsEnergyOfFormation', 'J/kmol', -120000000),
    scalar('DipoleMoment', 'Coulomb.m', '5.5E-30'),
    scalar('RacketParameter', '_', 0.26),
    scalar('SolubilityParameter', 'J0.5/m1.5', 20000), // not one of our properties: ignored
    '<AntoineVaporPressure name="Antoine"  units="Pa" >',
    '  <eqno value="10" />',
    '  <A value="22" />',
    '  <B value="4000" />',
    '  <C value="-80" />',
    '  <Tmin units="K"  value="300" />',
    '  <Tmax units="K"  value="500" />',
    '  </AntoineVaporPressure>',
    '<VaporPressure name="Vapour pressure"  units="Pa" >',
    '  <eqno value="101" />',
    '  <A value="80" />',
    '  <B value="-8000" />',
    '  <C value="-8" />',
    '  <D value="1E-06" />',
    '  <E value="2" />',
    '  <Tmin units="K"  value="239.2" />',
    '  <Tmax units="K"  value="601.5" />',
    '  </VaporPressure>',
    '<IdealGasHeatCapacityCp name="Ideal gas heat capacity"  units="J/kmol/K" >',
    '  <eqno value="100" />',
    '  <A value="100000" />',
    '  <B value="100" />',
    '  <C value="0.1" />',
    '  <D value="0" />',
    '  <E value="0" />',
    '  <Tmin units="K"  value="200" />',
    '  <Tmax units="K"  value="1000" />',
    '  </IdealGasHeatCapacityCp>',
  ].join('\n'),
});

const XML = [
  '<compounds library="ChemSep v9.9 pure component data - made up for a test" >',
  TESTOLANE,
  compound({ name: 'Cyclotestane', cas: '2345-67-7', structure: '-(CH2)5-', smiles: 'C1CCCC1', mw: 70.13 }),
  compound({ name: 'Test air', cas: '132259-10-0', structure: '(N2)0.78 (O2)0.22', smiles: 'N#N.O=O', mw: 28.9 }),
  compound({ name: 'Nosmilane', cas: '1234-56-6', structure: 'CH4', mw: 16.04 }),
  compound({ name: 'Badcasane', cas: '1234-56-7', structure: 'CH4', smiles: 'C', mw: 16.04 }),
  compound({ name: 'Heavytestane', cas: '2345-67-7', structure: 'CH4', smiles: 'C', mw: 30 }),
  '</compounds>',
].join('\n');

test('a ChemSep file: values converted to our units, each citing ChemSep and the file', () => {
  const { version, source, records } = readChemSepImport(XML, 'mine.xml');
  assert.equal(version, '9.9');
  assert.equal(source, 'ChemSep 9.9 (imported from mine.xml)');
  assert.deepEqual(
    records.map((r) => [r.where, r.compound.name, r.compound.formula]),
    [
      ['compound 1', 'Testolane', 'C7H16O'],
      ['compound 2', 'Cyclotestane', 'C5H10'],
    ],
  );
  const { properties, synonyms } = records[0].compound;
  const value = (key: keyof typeof properties) => [properties[key]?.value, properties[key]?.unit];
  assert.deepEqual(value('critical_temperature'), [601.5, 'K']);
  assert.deepEqual(value('critical_pressure'), [30.25, 'bar'], '3 025 000 Pa');
  assert.deepEqual(value('critical_volume'), [430, 'cm3/mol'], '0.43 m3/kmol');
  assert.deepEqual(value('critical_compressibility'), [0.26, '']);
  assert.deepEqual(value('acentric_factor'), [0.55, '']);
  assert.deepEqual(value('normal_boiling_point'), [449.8, 'K']);
  assert.deepEqual(value('melting_point'), [239.2, 'K']);
  assert.deepEqual(value('enthalpy_of_formation_gas'), [-330, 'kJ/mol'], '-3.3e8 J/kmol');
  assert.deepEqual(value('gibbs_energy_of_formation_gas'), [-120, 'kJ/mol']);
  assert.ok(Math.abs(properties.dipole_moment!.value - 5.5e-30 / 3.33564e-30) < 1e-9, '5.5e-30 C·m in debye');
  assert.deepEqual(value('rackett_compressibility'), [0.26, '']);
  // Molecular weight from the formula (IUPAC 2021), not the file's 116.2.
  assert.equal(properties.molecular_weight?.value, 116.204);
  assert.match(properties.molecular_weight!.source, /IUPAC/);
  for (const [key, v] of Object.entries(properties))
    if (key !== 'molecular_weight') assert.equal(v.source, 'ChemSep 9.9 (imported from mine.xml)', key);
  assert.deepEqual(synonyms, []);
  assert.deepEqual(checkCompound(records[0].compound), records[0].compound);
});

test('ChemSep Antoine (equation 10, Pa) becomes our log10(P/bar) form giving the same pressures', () => {
  const vp = readChemSepImport(XML, 'mine.xml').records[0].compound.correlations?.vapor_pressure;
  assert.equal(vp?.length, 1, 'only the Antoine equation; DIPPR 101 is not mapped');
  const antoine = vp![0];
  assert.equal(antoine.equation, 'antoine');
  assert.deepEqual(antoine.valid_range, { min: 300, max: 500, unit: 'K' });
  // Worked example: at 400 K, ln(P/Pa) = 22 − 4000/(400 − 80) = 9.5, P = e^9.5 Pa = 13 359.73 Pa = 0.1335973 bar.
  const { A, B, C } = antoine.coefficients as { A: number; B: number; C: number };
  const bar = 10 ** (A - B / (400 + C));
  assert.ok(Math.abs(bar - Math.exp(9.5) / 1e5) < 1e-12, `got ${bar} bar`);
  assert.ok(Math.abs(bar - 0.1335973) < 1e-7, `got ${bar} bar`);
});

test('ChemSep ideal-gas Cp (equation 100, J/(kmol·K)) becomes Cp°/R polynomial coefficients', () => {
  const cp = readChemSepImport(XML, 'mine.xml').records[0].compound.correlations?.ideal_gas_cp;
  assert.equal(cp?.equation, 'cp_poly4');
  assert.deepEqual(cp?.valid_range, { min: 200, max: 1000, unit: 'K' });
  // Worked example: at 300 K, Cp = 100000 + 100·300 + 0.1·300² = 139 000 J/(kmol·K) = 139 J/(mol·K);
  // Cp/R = 139/8.314462618 = 16.71785.
  const [a0, a1, a2, a3, a4] = cp!.coefficients;
  const T = 300;
  const cpOverR = a0 + a1 * T + a2 * T ** 2 + a3 * T ** 3 + a4 * T ** 4;
  assert.ok(Math.abs(cpOverR - 139 / 8.314462618) < 1e-9, `got ${cpOverR}`);
  assert.ok(Math.abs(cpOverR - 16.71785) < 1e-5, `got ${cpOverR}`);
});

test('records that cannot be served are skipped with the reason', () => {
  const { skipped } = readChemSepImport(XML, 'mine.xml');
  assert.deepEqual(
    skipped.map((s) => `${s.where} ${s.name}: ${s.reason}`),
    [
      'compound 3 Test air: its structure "(N2)0.78 (O2)0.22" is not the formula of one compound',
      'compound 4 Nosmilane: it has no SMILES',
      'compound 5 Badcasane: Badcasane: CAS number 1234-56-7 is not valid (format or check digit)',
      'compound 6 Heavytestane: its structure "CH4" (16.043 g/mol) disagrees with its molecular weight 30',
    ],
  );
});

test('a file that is not ChemSep, or uses a unit we do not know, is refused as a whole', () => {
  assert.throws(
    () => readChemSepImport('name,cas\n', 'x.csv'),
    /x\.csv holds no <compound> elements; it is not a ChemSep pure-component file/,
  );
  const oddUnit = XML.replace('units="Pa"  value="3025000"', 'units="psi"  value="3025000"');
  assert.throws(
    () => readChemSepImport(oddUnit, 'mine.xml'),
    /ChemSep Testolane: CriticalPressure in unknown unit "psi"/,
  );
});

test("entities: the five predefined ones are decoded in names, a DOCTYPE's are never expanded, an external one refuses the file", () => {
  const named = (name: string, doctype = '') =>
    `${doctype}<compounds>${compound({ name, cas: '2345-67-7', structure: '-(CH2)5-', smiles: 'C1CCCC1', mw: 70.13 })}</compounds>`;
  assert.equal(
    readChemSepImport(named('Cyclo&lt;test&gt; &amp; &quot;co&quot;&apos;'), 'mine.xml').records[0].compound.name,
    'Cyclo<test> & "co"\'',
  );
  const laughs =
    '<!DOCTYPE compounds [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>\n';
  assert.equal(readChemSepImport(named('&c;', laughs), 'mine.xml').records[0].compound.name, '&c;');
  const external = '<!DOCTYPE compounds [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n';
  assert.throws(
    () => readChemSepImport(named('&x;', external), 'mine.xml'),
    /the file cannot be read as XML: External entities are not supported/,
  );
});

test('XML that is not well-formed is refused with the place of the fault, not read in part', () => {
  const truncated = XML.slice(0, XML.indexOf('</compound>') + 20);
  assert.throws(
    () => readChemSepImport(truncated, 'mine.xml'),
    /the file is not well-formed XML: it ends inside <compoun>, with 2 elements still open; is it cut short\?/,
  );
  const cut = XML.slice(0, XML.indexOf('<eqno value="10" />'));
  assert.throws(
    () => readChemSepImport(cut, 'mine.xml'),
    /the file is not well-formed XML: it ends inside <AntoineVaporPressure>, with 3 elements still open; is it cut short\?/,
  );
  const misspelt = XML.replace('</AntoineVaporPressure>', '</AntoineVapourPressure>');
  assert.throws(
    () => readChemSepImport(misspelt, 'mine.xml'),
    /the file is not well-formed XML at line 25, column 3: Expected closing tag 'AntoineVaporPressure' \(opened in line 18, col 1\) instead of closing tag 'AntoineVapourPressure'\./,
  );
});

test('the real chemsep1.xml imports whole, but for records that cannot be served', (t) => {
  const { version, source, records, skipped } = readChemSepImport(readFileSync(chemsepFile(), 'utf8'), 'chemsep1.xml');
  t.diagnostic(
    `ChemSep ${version}: ${records.length} compounds, ${skipped.length} skipped: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}`,
  );
  assert.match(source, /^ChemSep \d+(\.\d+)* \(imported from chemsep1\.xml\)$/);
  assert.ok(records.length >= 400, `only ${records.length} of the file's compounds could be read`);
  assert.ok(skipped.length <= 10, `${skipped.length} skipped`);
  // Self-consistency of the mapping: the Antoine equations, in our form, give 1 atm within 10 % at
  // the file's own normal boiling point when that lies in their range. A few of the file's entries
  // disagree with themselves (listed); a conversion error would fail them all.
  const off: string[] = [];
  let checked = 0;
  for (const { compound } of records) {
    const antoine = compound.correlations?.vapor_pressure?.[0];
    const tb = compound.properties.normal_boiling_point?.value;
    if (
      antoine?.equation !== 'antoine' ||
      tb === undefined ||
      tb < antoine.valid_range.min ||
      tb > antoine.valid_range.max
    )
      continue;
    const { A, B, C } = antoine.coefficients;
    const bar = 10 ** (A - B / (tb + C));
    checked++;
    if (Math.abs(bar / 1.01325 - 1) > 0.1) off.push(`${compound.name}: ${bar.toPrecision(4)} bar at ${tb} K`);
  }
  t.diagnostic(
    `Antoine at the normal boiling point: ${checked} checked, ${off.length} off by more than 10 %: ${off.join('; ')}`,
  );
  assert.ok(checked > 100, `only ${checked} checked`);
  assert.ok(off.length <= checked / 50, `${off.length} of ${checked} off`);
});
