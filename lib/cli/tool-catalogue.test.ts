import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { README_PATH, renderCatalogue, replaceCatalogue } from './tool-catalogue.ts';

it('the README tool catalogue matches the live registry and the examples\' real answers', async () => {
  const readme = readFileSync(README_PATH, 'utf8');
  const expected = replaceCatalogue(readme, await renderCatalogue());
  assert.ok(readme === expected, 'README.md is out of date: run `npm run --silent docs:tools -- --write`');
});
