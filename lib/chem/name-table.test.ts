import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assembleNameTable, indexNameTable, lookUpName, nameTable, parseNameTableFile } from './name-table.ts';

const row = (...fields: string[]) => fields.join('\t');
// CID, CAS, formula, MW, SMILES, InChI, InChIKey, IUPAC name, common name, synonyms…
const FILE = [
  row(
    '702',
    '64-17-5',
    'C2H6O',
    '46.07',
    'CCO',
    'C2H6O/…',
    'LFQSCWFLJHTTHZ-UHFFFAOYSA-N',
    'ethanol',
    'ethanol',
    'ethyl alcohol',
    ' alcohol ',
    '',
    'ethyl alcohol',
    'C2H6O',
  ),
  // A line ending in \r\n, as a file saved on Windows has.
  `${row('-1', '67-56-1', 'CH4O', '32.04', 'CO', 'CH4O/…', 'not-a-key', 'methanol', 'methyl alcohol', 'wood spirit', 'alcohol')}\r`,
  row(
    '887',
    '115-10-6',
    'C2H6O',
    '46.07',
    'COC',
    'C2H6O/…',
    'LCGLNKUTAGEVQW-UHFFFAOYSA-N',
    'methoxymethane',
    'dimethyl ether',
    'ethyl alcohol',
  ),
  row('1', '64-17-5', 'C2H6O', '46.07', 'CCO', '', '', '', 'ethanol again'),
  row('2', 'no-cas', 'X', '1', 'C', '', '', '', 'no cas'),
  row('3', '50-00-0', 'CH2O', '30.03', '', '', '', '', 'no smiles'),
  row('4', '50-00-0', 'CH2O', '30.03', 'C=O', '', '', '', ''),
  'a line that is not a record',
  row('5', '7732-18-5', 'H2O', '18.02', 'O', 'H2O/…', 'XLYOFNOQVPJJNP-UHFFFAOYSA-N', 'oxidane', 'water'),
].join('\n');

test('a record gives its identifiers and its synonyms once each, without its own name or blanks', () => {
  const records = parseNameTableFile(FILE, 'f.tsv');
  assert.deepEqual(
    records.map((r) => r.cas),
    ['64-17-5', '67-56-1', '115-10-6', '64-17-5', '7732-18-5'],
    'rows without a CAS number, a SMILES or a name are left out',
  );
  const [ethanol, methanol] = records;
  assert.equal(ethanol.name, 'ethanol');
  assert.equal(ethanol.cid, 702);
  assert.equal(ethanol.inchikey, 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N');
  assert.deepEqual(ethanol.synonyms, ['ethyl alcohol', 'alcohol', 'C2H6O']);
  assert.equal(methanol.name, 'methyl alcohol', 'the common name before the IUPAC name');
  assert.equal(methanol.cid, undefined, 'CID −1 is no CID');
  assert.equal(methanol.inchikey, undefined, 'a malformed InChIKey is left out');
  assert.deepEqual(
    methanol.synonyms,
    ['methanol', 'wood spirit', 'alcohol'],
    'the IUPAC name first; the line end read off',
  );
  assert.deepEqual(records[4].synonyms, ['oxidane']);
});

test('keys go to a compound’s own names first, then to the first synonym claim; a later copy of a compound is dropped', () => {
  const records = parseNameTableFile(FILE, 'f.tsv');
  const table = assembleNameTable(records, indexNameTable(records));
  assert.equal(table.entries.length, 4);
  const found = (query: string) => {
    const result = lookUpName(query, table);
    return result.kind === 'found' ? `${result.match.entry.cas} ${result.match.by}` : result.kind;
  };
  assert.equal(found('Ethyl-Alcohol'), '64-17-5 synonym', 'ethanol claimed it before dimethyl ether');
  assert.equal(found('alcohol'), '64-17-5 synonym');
  assert.equal(found('WOOD SPIRIT'), '67-56-1 synonym');
  assert.equal(found('methanol'), '67-56-1 synonym');
  assert.equal(found('dimethyl ether'), '115-10-6 name');
  assert.equal(found('115-10-6'), '115-10-6 cas');
  assert.equal(found('InChIKey=LCGLNKUTAGEVQW-UHFFFAOYSA-N'), '115-10-6 inchikey');
  assert.equal(found('ethanol again'), 'none', 'the second record of 64-17-5 is dropped');
  assert.equal(found('H2O'), '7732-18-5 formula');
  assert.equal(found('unheard of'), 'none');
  const shared = lookUpName('C2H6O', table);
  assert.equal(shared.kind, 'ambiguous', 'a synonym that reads as a formula does not shadow the formula lookup');
  assert.deepEqual(shared.kind === 'ambiguous' && shared.candidates.map((e) => e.cas), ['64-17-5', '115-10-6']);
});

test('the shipped table finds a compound by a synonym, its CAS number and its InChIKey', () => {
  const table = nameTable();
  assert.ok(table, 'the pubchem-names layer ships with the repository');
  // From "chemical identifiers pubchem small.tsv": CID 4, 78-96-6, 1-aminopropan-2-ol.
  for (const query of ['monoisopropanolamine', '78-96-6', 'HXKKHQJGJAFBHI-UHFFFAOYSA-N', '1 Amino 2 Propanol']) {
    const result = lookUpName(query, table);
    assert.equal(result.kind === 'found' && result.match.entry.cas, '78-96-6', query);
  }
  const entry = table.entries.find((e) => e.cas === '78-96-6')!;
  assert.equal(entry.cid, 4);
  assert.ok(entry.synonyms.includes('monoisopropanolamine'));
  assert.ok(table.byKey.size > 100_000, `${table.byKey.size} keys`);
});
