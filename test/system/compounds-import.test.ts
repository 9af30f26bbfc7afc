/**
 * `cli compounds import` end to end: the operator CLI against a fresh SQLite database, then the
 * server restarted on it serving what was imported. The compounds are made up for the tests: ¹³C-
 * labelled SMILES and CAS numbers from the top of the range, which no built-in compound will take.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext, test } from 'node:test';
import { chemsepFile } from '../../lib/chem/chemsep-layer.ts';
import { allCompounds } from '../../lib/chem/compounds.ts';
import type { QueryCompoundResult } from '../../lib/chem/tools/query-compound.ts';
import { readChemSepImport } from '../../lib/compounds/chemsep-import.ts';
import { createDb } from '../../lib/db/client.ts';
import { toolResult, withCitations } from '../support/mcp-answers.ts';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { isolatedEnv, runCli, startTestServer, type TestServer } from '../support/test-server.ts';

const HEADER = 'name,cas,formula,smiles,synonyms,critical_temperature_K,critical_pressure_bar,acentric_factor,source';
const TESTOLANE =
  'testolane,9999999-99-5,C7H16O,[13CH3]CCCCCCO,test alcohol; 测试醇,601.5,30.25,0.55,Invented for this test';
const ISOTESTOLANE = 'isotestolane,9999998-99-2,C7H16O,[13CH3]C(C)CCCCO,,590.5,29.5,0.5,Invented for this test';

const files = mkdtempSync(join(tmpdir(), 'chemflow-import-'));
after(() => rmSync(files, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(files, name);
  writeFileSync(path, content);
  return path;
}

/** A fresh database (SQLite file in a temp folder) and the CLI against it. */
function installation(t: TestContext, extraEnv: Record<string, string> = {}) {
  const { dataDir, env } = isolatedEnv(extraEnv);
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const cli = (...args: string[]) => runCli(env, ['compounds', 'import', ...args]);
  const json = (...args: string[]) => {
    const run = cli(...args, '--json');
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout);
  };
  /** Imported rows (name → origin) and the number of import log rows. */
  const stored = async () => {
    const db = createDb(env.DATABASE_URL);
    try {
      const rows = await db.compound.findMany({ where: { origin: { not: 'builtin' } }, orderBy: { name: 'asc' } });
      return {
        rows: Object.fromEntries(rows.map((r) => [r.name, r.origin])),
        imports: await db.compoundImport.count(),
        builtins: await db.compound.count({ where: { origin: 'builtin' } }),
      };
    } finally {
      await db.$disconnect();
    }
  };
  return { env, cli, json, stored };
}

describe('compounds import (CSV)', () => {
  it('imports a valid file in one go and says so, recording the import', async (t) => {
    const { json, stored } = installation(t);
    const report = json(file('mine.csv', `${HEADER}\n${TESTOLANE}\n${ISOTESTOLANE}\n`));
    assert.deepEqual(report.totals, { records: 2, imported: 2, replaced: 0, conflicts: 0, skipped: 0 });
    assert.equal(report.origin, 'import:csv:mine.csv');
    assert.ok(report.importId, 'the import is logged');
    const after = await stored();
    assert.deepEqual(after.rows, { isotestolane: 'import:csv:mine.csv', testolane: 'import:csv:mine.csv' });
    assert.equal(after.imports, 1);
    assert.equal(after.builtins, allCompounds().length, 'the CLI mirrors the built-in data before checking conflicts');
  });

  it('refuses a file with errors as a whole: exit 1, each problem with its row and column, nothing written', async (t) => {
    const { cli, stored } = installation(t);
    const bad = file(
      'bad.csv',
      `${HEADER}\n${TESTOLANE}\n${ISOTESTOLANE.replace('9999998-99-2', '9999998-99-3').replace('29.5', '2950000')}\n`,
    );
    const run = cli(bad);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /bad\.csv is refused; nothing was written\. 2 problems:/);
    assert.match(run.stderr, /row 3, column cas: 9999998-99-3 fails the CAS check digit \(it should end in 2\)/);
    assert.match(run.stderr, /row 3, column critical_pressure_bar: 2950000 is not a plausible value in bar/);
    assert.deepEqual(await stored().then((s) => [s.rows, s.imports]), [{}, 0]);

    const asJson = cli(bad, '--json');
    assert.equal(asJson.status, 1);
    assert.equal(JSON.parse(asJson.stdout).problems.length, 2);
  });

  it('reports conflicts with built-in data and earlier imports, writes the rest; --replace replaces imports and overrides built-ins', async (t) => {
    const { cli, json, stored } = installation(t);
    json(file('first.csv', `${HEADER}\n${TESTOLANE}\n`));
    const builtin = allCompounds()[0];
    const second = file(
      'second.csv',
      [
        HEADER,
        `${builtin.name.toUpperCase()},9999997-99-9,C7H16O,[13CH3]CCCC(C)CO,,,,,`,
        TESTOLANE.replace('601.5', '602.5'),
        ISOTESTOLANE,
      ].join('\n'),
    );

    const run = cli(second);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Imported 1 of 3 compounds from second\.csv \(csv\) as import:csv:second\.csv\./);
    assert.match(run.stdout, /conflicts 2 \(not written\)/);
    assert.match(
      run.stdout,
      new RegExp(
        `row 2 ${builtin.name.toUpperCase()} \\(9999997-99-9\\): name "${builtin.name.toUpperCase()}" is the name "${builtin.name}" of built-in ${builtin.name}`,
      ),
    );
    assert.match(
      run.stdout,
      /row 3 testolane \(9999999-99-5\): name "testolane" is the name of imported testolane \(import:csv:first\.csv\); synonym "test alcohol" is the synonym of imported testolane/,
    );
    assert.deepEqual((await stored()).rows, {
      isotestolane: 'import:csv:second.csv',
      testolane: 'import:csv:first.csv',
    });

    const replaced = json(
      file(
        'third.csv',
        [HEADER, `${builtin.name},9999997-99-9,C7H16O,[13CH3]CCCC(C)CO,,,,,`, TESTOLANE.replace('601.5', '602.5')].join(
          '\n',
        ),
      ),
      '--replace',
    );
    assert.deepEqual(replaced.totals, { records: 2, imported: 2, replaced: 1, conflicts: 0, skipped: 0 });
    assert.deepEqual(replaced.replaced, [
      { name: 'testolane', cas: '9999999-99-5', origin: 'import:csv:first.csv', by: 'row 3 (testolane)' },
    ]);
    assert.deepEqual(replaced.overrides, [
      { where: 'row 2', name: builtin.name, cas: '9999997-99-9', builtins: [{ name: builtin.name, cas: builtin.cas }] },
    ]);
    assert.deepEqual((await stored()).rows, {
      [builtin.name]: 'import:csv:third.csv',
      isotestolane: 'import:csv:second.csv',
      testolane: 'import:csv:third.csv',
    });
  });

  it('--dry-run reports what would happen and writes nothing', async (t) => {
    const { json, stored } = installation(t);
    const report = json(file('dry.csv', `${HEADER}\n${TESTOLANE}\n`), '--dry-run');
    assert.equal(report.dryRun, true);
    assert.deepEqual(report.totals, { records: 1, imported: 1, replaced: 0, conflicts: 0, skipped: 0 });
    assert.equal(report.importId, undefined);
    assert.deepEqual(await stored().then((s) => [s.rows, s.imports]), [{}, 0]);
  });
});

describe('compounds import (usage and limits)', () => {
  it('usage errors exit 2; --help prints the CSV format', (t) => {
    const { cli } = installation(t);
    assert.equal(cli().status, 2);
    assert.match(cli().stderr, /Give exactly one file to import/);
    const format = cli(file('x.csv', HEADER), '--format', 'xlsx');
    assert.equal(format.status, 2);
    assert.match(format.stderr, /--format must be chemsep or csv, got "xlsx"/);
    assert.equal(cli('a.csv', '--force').status, 2);
    const help = cli('--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /CSV format: UTF-8/);
    assert.match(help.stdout, /critical_pressure_bar/);
  });

  it('refuses a missing file and a folder, with a clear message', (t) => {
    const { cli } = installation(t);
    const missing = cli(join(files, 'nowhere.csv'));
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /Cannot read .*nowhere\.csv: no such file\./);
    const folder = cli(files);
    assert.equal(folder.status, 1);
    assert.match(folder.stderr, /is not a file\./);
  });
});

/**
 * Files refused before anything is parsed or written: too big (by the default limit and by
 * COMPOUND_IMPORT_MAX_MB), empty, binary, not UTF-8, the wrong format for --format or the extension,
 * XML that is not ChemSep, CSV without its header. Each runs the real CLI on a real file, checks the
 * exit status and the message, and that the database holds no imported row and no import record.
 */
describe('compounds import (refused files)', () => {
  async function refused(t: TestContext, args: string[], message: RegExp, env: Record<string, string> = {}) {
    const { cli, stored } = installation(t, env);
    const run = cli(...args);
    assert.equal(run.status, 1, `exit status; stderr: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(await stored().then((s) => [s.rows, s.imports]), [{}, 0], 'nothing was written');
    return run;
  }

  it('a file over the default 50 MB limit, without reading it: the message names the size, the limit and how to raise it', async (t) => {
    const huge = file('huge.csv', '');
    truncateSync(huge, 50 * 1024 * 1024 + 1); // sparse: no 50 MB written
    await refused(
      t,
      [huge],
      /huge\.csv is 50\.0 MB; imports are limited to 50 MB \(COMPOUND_IMPORT_MAX_MB\)\. Split it into smaller files, or raise the limit, e\.g\. COMPOUND_IMPORT_MAX_MB=51\./,
    );
  });

  it('COMPOUND_IMPORT_MAX_MB sets the limit: a 1.5 MB file is refused under 1 and imported under 2', async (t) => {
    const padded = file('padded.csv', `${HEADER}\n${TESTOLANE}\n${'\n'.repeat(1.5 * 1024 * 1024)}`);
    await refused(
      t,
      [padded],
      /padded\.csv is 1\.5 MB; imports are limited to 1 MB \(COMPOUND_IMPORT_MAX_MB\)\..*COMPOUND_IMPORT_MAX_MB=2\./,
      { COMPOUND_IMPORT_MAX_MB: '1' },
    );
    await refused(t, [padded], /COMPOUND_IMPORT_MAX_MB must be a whole number of megabytes, at least 1; got "0\.5"/, {
      COMPOUND_IMPORT_MAX_MB: '0.5',
    });
    const { json } = installation(t, { COMPOUND_IMPORT_MAX_MB: '2' });
    assert.equal(json(padded).totals.imported, 1);
  });

  it('an empty file, and one of blank lines only', async (t) => {
    await refused(t, [file('empty.csv', '')], /empty\.csv is empty \(0 bytes\); nothing was written\./);
    await refused(t, [file('blank.xml', '\n  \r\n\t\n')], /blank\.xml holds only blank space; nothing was written\./);
  });

  it('binary files: a spreadsheet workbook, a gzip file, anything with NUL bytes', async (t) => {
    const workbook = file('compounds.csv', '');
    writeFileSync(workbook, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00]));
    await refused(
      t,
      [workbook],
      /compounds\.csv is not a text file: it is a ZIP archive \(an Excel \.xlsx or OpenDocument \.ods workbook is one\); export the sheet as CSV UTF-8\./,
    );
    const gzip = file('compounds.csv.gz', '');
    writeFileSync(gzip, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00]));
    await refused(t, [gzip, '--format', 'csv'], /is not a text file: it is gzip-compressed; decompress it first\./);
    const nul = file('nul.csv', `${HEADER}\n${TESTOLANE}\u0000\n`);
    await refused(t, [nul], /nul\.csv is not a text file: byte \d+ is a NUL byte/);
  });

  it('text that is not UTF-8 (Latin-1 CSV, UTF-16), with the byte and line of the first bad character', async (t) => {
    const latin1 = file('latin1.csv', '');
    writeFileSync(
      latin1,
      Buffer.from(`${HEADER}\n${TESTOLANE.replace('test alcohol', 'test alcoh\u00f6l')}\n`, 'latin1'),
    );
    const offset = Buffer.byteLength(`${HEADER}\n${TESTOLANE.slice(0, TESTOLANE.indexOf('test alcohol'))}test alcoh`);
    await refused(
      t,
      [latin1],
      new RegExp(`latin1\\.csv is not UTF-8 text: byte ${offset} \\(line 2\\) is not valid UTF-8\\. Save it as UTF-8`),
    );
    const utf16 = file('utf16.csv', '');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${HEADER}\n`, 'utf16le')]));
    await refused(t, [utf16], /utf16\.csv is UTF-16 text; save it as UTF-8/);
  });

  it('content that is not the format chosen by --format or by the extension', async (t) => {
    const xmlAsCsv = file('library.csv', CHEMSEP_XML);
    await refused(
      t,
      [xmlAsCsv],
      /library\.csv is imported as CSV \(the \.csv extension\), but it holds XML\. If it is a ChemSep file, import it with --format chemsep\./,
    );
    const csv = file('mine.txt', `${HEADER}\n${TESTOLANE}\n`);
    await refused(
      t,
      [csv, '--format', 'chemsep'],
      /mine\.txt is imported as ChemSep XML \(--format chemsep\), but it is not XML: it starts with "name,cas,formula/,
    );
    await refused(
      t,
      [file('mine.xml', `${HEADER}\n${TESTOLANE}\n`)],
      /mine\.xml is imported as ChemSep XML \(the \.xml extension\), but it is not XML/,
    );
    // An explicit --format wins over the extension when the content agrees.
    const { json } = installation(t);
    assert.equal(json(xmlAsCsv, '--format', 'chemsep').totals.imported, 1);
  });

  it('XML that is not a ChemSep compound file, whatever its name', async (t) => {
    const svg = '<?xml version="1.0"?>\n<!-- a drawing -->\n<svg xmlns="http://www.w3.org/2000/svg"><compound/></svg>';
    await refused(
      t,
      [file('drawing.xml', svg)],
      /drawing\.xml is XML, but not a ChemSep pure-component file: its root element is <svg>, not <compounds>/,
    );
    await refused(t, [file('drawing.dat', svg)], /drawing\.dat is XML, but not a ChemSep pure-component file/);
    await refused(
      t,
      [file('empty-library.xml', '<compounds library="ChemSep v8.3"></compounds>')],
      /empty-library\.xml is refused; nothing was written: empty-library\.xml holds no <compound> elements/,
    );
  });

  it('an XML file declaring ISO-8859-1 is read as Latin-1; another declared encoding is refused', async (t) => {
    const latin1Xml = file('latin1.xml', '');
    writeFileSync(
      latin1Xml,
      Buffer.from(
        `<?xml version="1.0" encoding="ISO-8859-1"?>\n${CHEMSEP_XML.replace('Chemsepotane', 'Chemsepot\u00e4ne')}`,
        'latin1',
      ),
    );
    const { json, stored } = installation(t);
    assert.equal(json(latin1Xml).totals.imported, 1);
    assert.deepEqual((await stored()).rows, { Chemsepotäne: 'import:chemsep:latin1.xml' });
    await refused(
      t,
      [file('sjis.xml', `<?xml version="1.0" encoding="Shift_JIS"?>\n${CHEMSEP_XML}`)],
      /sjis\.xml declares the encoding "shift_jis"; only UTF-8 and ISO-8859-1 XML can be imported/,
    );
  });

  it('CSV without its header row: one message saying so, not one per field', async (t) => {
    const run = await refused(
      t,
      [file('headless.csv', `${TESTOLANE}\n${ISOTESTOLANE}\n`)],
      /row 1: the first row must name the columns \(name, cas, formula, smiles, …\), but none of its 9 fields is a column name; is the header row missing\?/,
    );
    assert.match(run.stderr, /1 problem:/);
    await refused(
      t,
      [file('partial.csv', `name,cas,formula\nx,64-17-5,C2H6O\n`)],
      /row 1, column smiles: the required column "smiles" is missing/,
    );
  });
});

/** A ChemSep-format file written for the test; the compound and its numbers are made up. */
const CHEMSEP_XML = `<compounds library="ChemSep v9.9 made up for a test">
<compound>
<CompoundID name="Name"  value="Chemsepotane" />
<StructureFormula name="Structure"  value="CH3(CH2)6OH" />
<CriticalTemperature name="Critical temperature"  units="K"  value="601.5" />
<CriticalPressure name="Critical pressure"  units="Pa"  value="3025000" />
<MolecularWeight name="Molecular weight"  units="kg/kmol"  value="116.2" />
<CAS name="CAS number"  value="9999996-99-6" />
<Smiles name="SMILES"  value="[13CH3]CCCCC(C)O" />
</compound>
</compounds>`;

describe('compounds import (ChemSep)', () => {
  it('imports a ChemSep file, recognised by its content whatever its extension', async (t) => {
    const { json, stored } = installation(t);
    const report = json(file('library.txt', CHEMSEP_XML));
    assert.equal(report.format, 'chemsep');
    assert.deepEqual(report.totals, { records: 1, imported: 1, replaced: 0, conflicts: 0, skipped: 0 });
    assert.deepEqual((await stored()).rows, { Chemsepotane: 'import:chemsep:library.txt' });
  });

  it('imports the real chemsep1.xml into a fresh database: conflicts with built-in data reported, not written', async (t) => {
    const { json, env } = installation(t);
    const report = json(chemsepFile());
    const { records, imported, conflicts, skipped } = report.totals;
    t.diagnostic(`chemsep1.xml: ${JSON.stringify(report.totals)}`);
    assert.equal(imported + conflicts + skipped, records, 'every record is imported, a conflict or skipped');
    // At least every record holding a built-in compound's CAS number is a conflict with built-in data.
    const builtinCas = new Set(allCompounds().map((c) => c.cas));
    const shared = readChemSepImport(readFileSync(chemsepFile(), 'utf8'), 'chemsep1.xml').records.filter((r) =>
      builtinCas.has(r.compound.cas),
    ).length;
    assert.ok(
      shared > 0 && conflicts >= shared,
      `${conflicts} conflicts, ${shared} records share a built-in CAS number`,
    );
    for (const conflict of report.conflicts)
      assert.match(conflict.collisions.join('; '), /of built-in /, conflict.name);

    const db = createDb(env.DATABASE_URL);
    try {
      const imported = await db.compound.findMany({
        where: { origin: 'import:chemsep:chemsep1.xml' },
        select: { cas: true, properties: true },
      });
      assert.equal(imported.length, report.totals.imported);
      assert.deepEqual(
        imported.filter((r) => builtinCas.has(r.cas)),
        [],
        'no built-in compound was written as an import',
      );
      for (const row of imported.slice(0, 1)) {
        assert.match(
          JSON.parse(row.properties).critical_temperature.source,
          /^ChemSep \d+(\.\d+)* \(imported from chemsep1\.xml\)$/,
        );
      }
    } finally {
      await db.$disconnect();
    }
  });
});

let server: TestServer | undefined;
after(() => server?.stop());

test('imported compounds are served by service_query_compound after a restart', async () => {
  const first = await startTestServer();
  server = first;
  const imported = first.cli('compounds', 'import', file('served.csv', `${HEADER}\n${TESTOLANE}\n`));
  assert.equal(imported.status, 0, imported.stderr);
  assert.equal(await first.stop({ keepData: true }), 0);

  server = await startTestServer({}, { restartOf: first });
  assert.match(server.output(), /Imported compounds served: 1\./);
  const created = server.cli('key', 'create', '--owner', server.adminEmail, '--rps', '100', '--json');
  assert.equal(created.status, 0, created.stderr);
  const { key } = JSON.parse(created.stdout);
  for (const query of ['testolane', '测试醇', '9999999-99-5']) {
    const answer = await postMcp(
      server.mcpUrl,
      toolCall('service_query_compound', { compound_name: query }),
      bearer(key),
    );
    assert.equal(answer.status, 200);
    const result = toolResult<QueryCompoundResult>(answer);
    assert.equal(result.isError, false, result.content?.[0]?.text);
    assert.equal(result.structuredContent?.name, 'testolane', query);
    assert.deepEqual(withCitations(result.structuredContent)?.properties.critical_pressure, {
      value: 30.25,
      unit: 'bar',
      source: 'Invented for this test',
    });
  }
});

test('--replace overrides a built-in compound: stored, reported, served in its place after a restart, and kept by the next start', async () => {
  const ethanol = allCompounds().find((c) => c.cas === '64-17-5')!;
  const mine = file('ethanol.csv', `${HEADER}\nethanol,64-17-5,C2H6O,CCO,,520.5,61.5,0.64,My lab 2026\n`);
  await server?.stop(); // the previous test's server
  const first = await startTestServer();
  server = first;
  const refused = first.cli('compounds', 'import', mine);
  assert.equal(refused.status, 0, refused.stderr);
  assert.match(refused.stdout, /Imported 0 of 1 compound from ethanol\.csv/);
  assert.match(refused.stdout, /row 2 ethanol \(64-17-5\): name "ethanol" is the name of built-in ethanol/);
  const overriding = first.cli('compounds', 'import', mine, '--replace');
  assert.equal(overriding.status, 0, overriding.stderr);
  assert.match(overriding.stdout, /Imported 1 of 1 compound/);
  assert.match(overriding.stdout, /row 2 ethanol \(64-17-5\) overrides built-in ethanol \(64-17-5\)/);
  assert.equal(await first.stop({ keepData: true }), 0);

  let previous = first;
  for (const start of ['first restart', 'second restart']) {
    server = await startTestServer({}, { restartOf: previous });
    previous = server;
    assert.match(
      server.output(),
      /Built-in ethanol \(64-17-5\) is overridden by the imported ethanol \(64-17-5\)/,
      start,
    );
    const created = server.cli('key', 'create', '--owner', server.adminEmail, '--rps', '100', '--json');
    assert.equal(created.status, 0, created.stderr);
    const { key } = JSON.parse(created.stdout);
    for (const query of ['ethanol', '64-17-5', '乙醇']) {
      const answer = await postMcp(
        server.mcpUrl,
        toolCall('service_query_compound', { compound_name: query }),
        bearer(key),
      );
      assert.equal(answer.status, 200);
      const result = toolResult<QueryCompoundResult>(answer);
      assert.equal(result.isError, false, result.content?.[0]?.text);
      const doc = withCitations(result.structuredContent);
      assert.ok(doc, `${start}: ${query}: a structured result`);
      assert.equal(doc.name, 'ethanol', `${start}: ${query}`);
      assert.deepEqual(
        doc.properties.critical_temperature,
        { value: 520.5, unit: 'K', source: 'My lab 2026' },
        `${start}: ${query}`,
      );
      assert.notEqual(doc.properties.critical_temperature?.value, ethanol.properties.critical_temperature?.value);
    }
    assert.equal(await server.stop({ keepData: true }), 0);
  }
  server = undefined;
});
