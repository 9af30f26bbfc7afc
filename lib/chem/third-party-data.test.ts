/**
 * The data shipped under lib/chem/data/third-party/: each layer folder carries its licence, a NOTICE.md
 * and a SHA256SUMS manifest that lists every file exactly once with the sha256 of its bytes, and every
 * layer loads into a useful number of records. A file edited, added or removed without its manifest
 * (or a manifest line left behind) fails here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readManifest } from '../../test/support/manifest.ts';
import { PROJECT_ROOT } from '../project-root.ts';
import { dataLayerSummary } from './data-layers.ts';
import { mixtureNames } from './mixture-names.ts';
import { DATA_LAYERS, MANIFEST_FILE, sha256Of, THIRD_PARTY_DIR } from './third-party-data.ts';

const SHIPPED = join(PROJECT_ROOT, THIRD_PARTY_DIR);
const NOTICE = 'NOTICE.md';
const LICENCE = /^(LICENSE|License)(\.txt)?$/;

/** Every file under dir, relative to it, "/"-separated. */
function filesUnder(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under ? `${under}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

const folders = readdirSync(SHIPPED, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

test('the shipped folders are exactly the data layers', () => {
  assert.deepEqual(folders, [...DATA_LAYERS].sort());
});

for (const folder of folders) {
  const dir = join(SHIPPED, folder);

  test(`${folder}/ has a licence file, a ${NOTICE} and a ${MANIFEST_FILE}`, () => {
    const files = readdirSync(dir);
    assert.ok(
      files.some((name) => LICENCE.test(name)),
      `no licence file among ${files.join(', ')}`,
    );
    assert.ok(files.includes(NOTICE), `no ${NOTICE}`);
    assert.ok(files.includes(MANIFEST_FILE), `no ${MANIFEST_FILE}`);
  });

  test(`${folder}/${MANIFEST_FILE} lists every file of the folder with its sha256, and nothing else`, () => {
    const manifest = readManifest(dir);
    const lines = readFileSync(join(dir, MANIFEST_FILE), 'utf8').split('\n').filter(Boolean);
    assert.equal(manifest.size, lines.length, 'every line is "<sha256>  <path>", each path once');
    const present = filesUnder(dir)
      .filter((path) => path !== MANIFEST_FILE && path !== NOTICE)
      .sort();
    assert.deepEqual([...manifest.keys()].sort(), present);
    const wrong = [...manifest].filter(([path, sum]) => sha256Of(join(dir, path)) !== sum).map(([path]) => path);
    assert.deepEqual(wrong, [], 'files whose bytes differ from the manifest');
  });

  test(`${folder}/${NOTICE} names the licence file it ships and, for a git upstream, its commit`, () => {
    const notice = readFileSync(join(dir, NOTICE), 'utf8');
    const licence = readdirSync(dir).find((name) => LICENCE.test(name));
    assert.ok(notice.includes(`\`${licence}\``), `${NOTICE} does not name ${licence}`);
    // ChemSep is distributed as a file, not from a repository: there is no commit to name.
    if (folder !== 'chemsep') assert.match(notice, /^- \*\*Upstream commit:\*\* `[0-9a-f]{40}`$/m);
  });
}

test('every layer loads into records: reference equations, NASA-7 fits, ChemSep compounds, names and mixtures', () => {
  const summary = dataLayerSummary();
  const counts = Object.fromEntries(summary.map((s) => [s.layer, s.count]));
  assert.deepEqual(Object.keys(counts).sort(), [...DATA_LAYERS].sort());
  for (const s of summary) assert.ok(existsSync(s.dir), `${s.layer}: ${s.dir} is missing`);
  // Floors a little under the counts of the files shipped now (98, 110, 431, 5130 and 176).
  const floors = { coolprop: 90, nasa: 100, chemsep: 400, 'pubchem-names': 5000 };
  for (const [layer, floor] of Object.entries(floors))
    assert.ok(counts[layer] >= floor, `${layer}: ${counts[layer]} records, fewer than ${floor}`);
  assert.ok(mixtureNames().size >= 80, `${mixtureNames().size} mixture names`);
});
