/**
 * The CSV import format: a well-formed file becomes compounds in our units with computed molecular
 * weights; every kind of defect is reported with its row and column, and any defect refuses the file.
 * The compounds here are made up for the tests.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CsvError, csvColumns, parseCompoundCsv } from './csv.ts';
import { checkCompound } from './registration.ts';

const HEADER =
  'name,cas,formula,smiles,inchikey,synonyms,critical_temperature_K,critical_pressure_bar,acentric_factor,normal_boiling_point_K,liquid_density_kg_m3,liquid_density_temperature_K,source';
const GOOD_ROW =
  'testolane,1234-56-6,CH3(CH2)6OH,CCCCCCCO,,"test alcohol; 测试醇",601.5,30.25,0.55,449.8,820,298.15,"Invented, for this test"';

/** Errors as "row:column: message" lines, for compact assertions. */
const lines = (errors: CsvError[]) => errors.map((e) => `${e.row}:${e.column ?? ''}: ${e.message}`);

function refused(csv: string): string[] {
  const { records, errors } = parseCompoundCsv(csv);
  assert.deepEqual(records, [], 'a file with errors yields no records');
  assert.ok(errors.length > 0, 'expected errors');
  return lines(errors);
}

test('a well-formed row becomes a compound: Hill formula, computed molecular weight, units and source on every value', () => {
  const { records, errors } = parseCompoundCsv(`${HEADER}\n${GOOD_ROW}\n`);
  assert.deepEqual(errors, []);
  assert.equal(records.length, 1);
  const { where, compound } = records[0];
  assert.equal(where, 'row 2');
  assert.equal(compound.formula, 'C7H16O');
  assert.deepEqual(compound.synonyms, ['test alcohol', '测试醇']);
  // C7H16O with IUPAC 2021 weights: 7·12.011 + 16·1.008 + 15.999 = 116.204 g/mol.
  assert.equal(compound.properties.molecular_weight?.value, 116.204);
  assert.deepEqual(compound.properties.critical_pressure, {
    value: 30.25,
    unit: 'bar',
    source: 'Invented, for this test',
  });
  assert.deepEqual(compound.properties.liquid_density, {
    value: 820,
    unit: 'kg/m3',
    source: 'Invented, for this test',
    temperature: { value: 298.15, unit: 'K' },
  });
  assert.equal(compound.properties.acentric_factor?.unit, '');
  assert.deepEqual(checkCompound(compound), compound, 'the record is in the stored form');
});

test('columns in any order and case, CRLF line ends, a BOM, quoted fields with commas, quotes and line breaks, blank lines', () => {
  const csv =
    '\uFEFFSMILES,Name,CAS,Formula,Notes,Source,Critical_Temperature_K\r\n' +
    'CCCCCCCO,testolane,1234-56-6,C7H16O,"A ""test"" note,\r\nover two lines",my notebook,601.5\r\n' +
    '\r\n' +
    'OCC(C)CCCC,isotestolane,2345-67-7,C7H16O,,,\r\n';
  const { records, errors } = parseCompoundCsv(csv);
  assert.deepEqual(errors, []);
  assert.deepEqual(
    records.map((r) => [r.where, r.compound.name]),
    [
      ['row 2', 'testolane'],
      ['row 5', 'isotestolane'],
    ],
  );
  assert.deepEqual(records[0].compound.notes, ['A "test" note,\r\nover two lines']);
  assert.deepEqual(
    Object.keys(records[1].compound.properties),
    ['molecular_weight'],
    'a row without values needs no source',
  );
});

test('line ends of every kind, mixed; blank lines anywhere, at the end too; blank space around quoted fields; a quote inside an unquoted field', () => {
  const csv =
    '\n  \r\nname,cas,formula,smiles,notes\r' +
    'testolane,1234-56-6,C7H16O,CCCCCCCO,  "a, quoted ""note""\r\nover two lines"  \n' +
    '\t\n' +
    'isotestolane,2345-67-7,C7H16O,OCC(C)CCCC,a 5" pipe\r\n' +
    '\n\r\n\n';
  const { records, errors } = parseCompoundCsv(csv);
  assert.deepEqual(errors, []);
  assert.deepEqual(
    records.map((r) => [r.where, r.compound.notes]),
    [
      ['row 4', ['a, quoted "note"\r\nover two lines']],
      ['row 7', ['a 5" pipe']],
    ],
  );
});

test('header problems: unknown column, wrong unit, molecular_weight, duplicate and missing columns', () => {
  assert.deepEqual(
    refused(
      'name,cas,formula,smiles,critical_pressure_Pa,colour,molecular_weight_g_mol,name\nx,1234-56-6,C,C,1,red,1,x\n',
    ),
    [
      '1:critical_pressure_Pa: "critical_pressure_Pa": critical_pressure must be given in bar, in a column named "critical_pressure_bar"',
      `1:colour: unknown column "colour" (known columns: ${csvColumns().join(', ')})`,
      '1:molecular_weight_g_mol: molecular_weight is computed from the formula; remove this column',
      '1:name: column 8 "name" appears twice',
    ],
  );
  assert.deepEqual(refused('name,formula\nx,C\n'), [
    '1:cas: the required column "cas" is missing',
    '1:smiles: the required column "smiles" is missing',
  ]);
  assert.deepEqual(refused(''), ['1:: the file is empty; the first row must name the columns']);
  assert.deepEqual(refused(`${HEADER}\n`), ['2:: the file has a header but no compounds']);
});

test('row problems are each reported with row and column: CAS, formula, numbers, units, SMILES, InChIKey, source, consistency', () => {
  const rows = [
    HEADER,
    GOOD_ROW,
    'bad cas,1234-56-7,C7H16O,CCCCCCCO,,,,,,,,,',
    'not cas,12345,C7H16O,CCCCCCCO,,,,,,,,,',
    'bad formula,2345-67-7,C7H16Xx,CCCCCCCO,,,,,,,,,',
    'bad number,2345-67-7,C7H16O,CCCCCCCO,,,6o1,,,,,,s',
    'pressure in Pa,2345-67-7,C7H16O,CCCCCCCO,,,,3025000,,,,,s',
    'density in g/cm3,2345-67-7,C7H16O,CCCCCCCO,,,,,,,0.82,298.15,s',
    'no temperature,2345-67-7,C7H16O,CCCCCCCO,,,,,,,820,,s',
    'no source,2345-67-7,C7H16O,CCCCCCCO,,,601.5,,,,,,',
    'Tb above Tc,2345-67-7,C7H16O,CCCCCCCO,,,400,,,450,,,s',
    'spaced smiles,2345-67-7,C7H16O,CCC CCCCO,NOT-A-KEY,,,,,,,,',
    ',,,,,,,,,,,,',
    'short row,2345-67-7',
  ];
  assert.deepEqual(refused(rows.join('\n')), [
    '3:cas: 1234-56-7 fails the CAS check digit (it should end in 6)',
    '4:cas: "12345" is not a CAS number (2–7 digits, 2 digits, 1 check digit: 64-17-5)',
    '5:formula: "C7H16Xx" does not parse as a formula of known elements (e.g. C2H6O, CH3(CH2)4CH3)',
    '6:critical_temperature_K: "6o1" is not a number',
    '7:critical_pressure_bar: 3025000 is not a plausible value in bar (expected above 0 and at most 2000); is it in another unit?',
    '8:liquid_density_kg_m3: 0.82 is not a plausible value in kg/m3 (expected at least 10 and at most 25000); is it in another unit?',
    '9:liquid_density_temperature_K: is empty: liquid_density_kg_m3 needs the temperature it holds at',
    '10:source: is empty, but the row has values: name the published source they come from',
    '11:normal_boiling_point_K: 450 K is not below the critical temperature 400 K',
    '12:smiles: a SMILES string has no spaces',
    '12:inchikey: "NOT-A-KEY" is not a standard InChIKey (XXXXXXXXXXXXXX-XXXXXXXXXX-X)',
    '13:name: is empty',
    '13:cas: is empty',
    '13:formula: is empty',
    '13:smiles: is empty',
    '14:: has 2 fields; the header has 13',
  ]);
});

test('rows that collide with each other are refused, naming the earlier row', () => {
  const csv = [
    'name,cas,formula,smiles,synonyms',
    'testolane,1234-56-6,C7H16O,CCCCCCCO,heptanol-x',
    'Heptanol X,2345-67-7,C7H16O,OCC(C)CCCC,',
    'other,1234-56-6,C7H16O,CC(C)CCCCO,',
  ].join('\n');
  assert.deepEqual(refused(csv), [
    '3:name: name "Heptanol X" is the synonym "heptanol-x" of row 2 (testolane)',
    '4:cas: cas "1234-56-6" is the cas of row 2 (testolane)',
  ]);
});

test('an unclosed quote is reported at the row it opens', () => {
  assert.deepEqual(refused('name,cas,formula,smiles\n"testolane,1234-56-6,C7H16O,CCCCCCCO\n'), [
    '2:: a quoted field is not closed (a " is missing)',
  ]);
  assert.deepEqual(
    refused('name,cas,formula,smiles,notes\r\nx,1234-56-6,C,C,"two\r\nlines"\r\n\r\ny,2345-67-7,C,C,"open\r\n'),
    ['5:: a quoted field is not closed (a " is missing)'],
  );
});

test('text after a closing quote is refused at the row it starts on, naming the field', () => {
  const expected = [
    '4:: field 5 goes on after its closing quote; put the whole field in quotes, writing each " inside it as ""',
  ];
  assert.deepEqual(
    refused('name,cas,formula,smiles,notes\nx,1234-56-6,C,C,"two\nlines"\ny,2345-67-7,C,C,"a" note\n'),
    expected,
  );
  assert.deepEqual(
    refused('name,cas,formula,smiles,notes\nx,1234-56-6,C,C,"two\nlines"\ny,2345-67-7,C,C,"a"b\n'),
    expected,
  );
});
