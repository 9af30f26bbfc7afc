/** CSV cells: quoted as RFC 4180 wants, and never read as a formula by a spreadsheet. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvCell, csvLine } from './csv.ts';

test('cells that a spreadsheet would run as a formula get a leading apostrophe', () => {
  assert.equal(csvCell('=HYPERLINK("http://evil.test","x")'), `"'=HYPERLINK(""http://evil.test"",""x"")"`);
  assert.equal(csvCell('+1+1'), "'+1+1");
  assert.equal(csvCell('-2+3'), "'-2+3");
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvCell('\t=1'), "'\t=1");
  assert.equal(csvCell('\r=1'), `"'\r=1"`);
  // Only the first character matters: these are plain text.
  assert.equal(csvCell('service_query_compound'), 'service_query_compound');
  assert.equal(csvCell('a=b'), 'a=b');
});

test('commas, quotes and line breaks are quoted; empty values are empty cells', () => {
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(12.5), '12.5');
  assert.equal(csvLine(['2026-11-27T10:00:00.000Z', 'tool', null, 3]), '2026-11-27T10:00:00.000Z,tool,,3\r\n');
});
