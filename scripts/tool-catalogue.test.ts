import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { CATALOGUE_PATH, renderCatalogue, replaceCatalogue } from './tool-catalogue.ts';

it("the tool catalogue in docs/tools.md matches the live registry and the examples' real answers", async () => {
  const readme = readFileSync(CATALOGUE_PATH, 'utf8');
  const expected = replaceCatalogue(readme, await renderCatalogue());
  assert.ok(readme === expected, 'docs/tools.md is out of date: run `npm run --silent docs:tools -- --write`');
});
