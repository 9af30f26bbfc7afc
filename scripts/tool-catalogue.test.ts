import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { referenceFluidDir } from '../lib/chem/helmholtz/fluids.ts';
import { nameTableDir } from '../lib/chem/name-table.ts';
import { nasaDataDir } from '../lib/chem/nasa7.ts';
import { CATALOGUE_PATH, renderCatalogue, replaceCatalogue } from './tool-catalogue.ts';

// The examples are generated with the steering folder's data present (reference equations, NASA-7, the
// name table): without it they answer from other layers, so the comparison would not hold.
const missing = [referenceFluidDir(), nasaDataDir(), nameTableDir()].filter((dir) => !existsSync(dir));

it("the tool catalogue in docs/tools.md matches the live registry and the examples' real answers", {
  skip: missing.length > 0 && `the examples are generated with ${missing.join(', ')} present`,
}, async () => {
  const readme = readFileSync(CATALOGUE_PATH, 'utf8');
  const expected = replaceCatalogue(readme, await renderCatalogue());
  assert.ok(readme === expected, 'docs/tools.md is out of date: run `npm run --silent docs:tools -- --write`');
});
