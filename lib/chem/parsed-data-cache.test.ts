import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { deserialize, serialize } from 'node:v8';
import { assembleNameTable, indexNameTable, lookUpName, nameTable } from './name-table.ts';
import { BUILD_ID_VARIABLE, cachedParse } from './parsed-data-cache.ts';

describe('the parsed-data cache', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parsed-data-cache-'));
  const cacheDir = join(folder, 'cache');
  const input = join(folder, 'input.txt');
  const savedBuildId = process.env[BUILD_ID_VARIABLE];
  after(() => {
    rmSync(folder, { recursive: true, force: true });
    if (savedBuildId === undefined) delete process.env[BUILD_ID_VARIABLE];
    else process.env[BUILD_ID_VARIABLE] = savedBuildId;
  });
  beforeEach(() => {
    rmSync(cacheDir, { recursive: true, force: true });
    writeFileSync(input, 'first');
    process.env[BUILD_ID_VARIABLE] = 'build-1';
  });

  /** cachedParse with a parser that counts its runs and reads the input file. */
  function parser() {
    const runs: string[] = [];
    const parse = () =>
      cachedParse(
        'layer',
        [input],
        () => {
          runs.push('parsed');
          return { text: 'read', values: new Map([['a', Int32Array.of(1, 2)]]) };
        },
        cacheDir,
      );
    return { parse, runs };
  }

  test('a second start of the same build reads the parsed result back instead of parsing', () => {
    const { parse, runs } = parser();
    const first = parse();
    const second = parse();
    assert.deepEqual(runs, ['parsed'], 'parsed once');
    assert.deepEqual(second, first);
    assert.ok(second.values.get('a') instanceof Int32Array, 'typed arrays come back as themselves');
    assert.equal(readdirSync(cacheDir).length, 1);
  });

  test('a changed input file or another build parses again; other results and left temporary files are removed', () => {
    const { parse, runs } = parser();
    parse();
    writeFileSync(input, 'second');
    parse();
    assert.deepEqual(runs, ['parsed', 'parsed'], 'a changed file is parsed again');
    process.env[BUILD_ID_VARIABLE] = 'build-2';
    parse();
    assert.equal(runs.length, 3, 'another build parses again');
    writeFileSync(join(cacheDir, `${readdirSync(cacheDir)[0]}.4242.tmp`), 'left by a stopped process');
    writeFileSync(input, 'third');
    parse();
    assert.equal(readdirSync(cacheDir).length, 1, 'only the current result is kept');
    parse();
    assert.equal(runs.length, 4);
  });

  test('run from source (no build id), results are kept under the digest of the source', () => {
    delete process.env[BUILD_ID_VARIABLE];
    const { parse, runs } = parser();
    parse();
    parse();
    assert.equal(runs.length, 1);
    process.env[BUILD_ID_VARIABLE] = 'build-1';
    parse();
    assert.equal(runs.length, 2, 'the built server has a key of its own');
  });

  test('an unreadable cache file is parsed again and rewritten', () => {
    const { parse, runs } = parser();
    parse();
    const [file] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, file), 'not a serialized value');
    assert.deepEqual(parse(), { text: 'read', values: new Map([['a', Int32Array.of(1, 2)]]) });
    assert.equal(runs.length, 2, 'parsed again');
    parse();
    assert.equal(runs.length, 2, 'and the rewritten file is read');
  });
});

test('the shipped name table answers the same from an index read back as from one just built', () => {
  delete process.env[BUILD_ID_VARIABLE];
  const table = nameTable();
  assert.ok(table);
  // The kept entries are the records here (no duplicates among them): indexing them again keeps all.
  const readBack = assembleNameTable(table.entries, deserialize(serialize(indexNameTable(table.entries))));
  assert.equal(readBack.entries.length, table.entries.length);
  assert.deepEqual([...readBack.byKey.entries()], [...table.byKey.entries()]);
  assert.deepEqual(readBack.byFormula, table.byFormula);
  for (const query of ['acetone', 'Benzene', '7732-18-5', 'C6H6', 'C2H6O', 'no such compound'])
    assert.deepEqual(lookUpName(query, readBack), lookUpName(query, table), query);
});
