import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editDistance } from './edit-distance.ts';

test('counts insertions, deletions, substitutions and adjacent transpositions', () => {
  assert.equal(editDistance('ethanol', 'ethanol'), 0);
  assert.equal(editDistance('etanol', 'ethanol'), 1);
  assert.equal(editDistance('etanol', 'methanol'), 2);
  assert.equal(editDistance('tolune', 'toluene'), 1);
  assert.equal(editDistance('bnezene', 'benzene'), 1);
  assert.equal(editDistance('', 'abc'), 3);
});

test('counts code points, so one Chinese character is one edit', () => {
  assert.equal(editDistance('乙纯', '乙醇'), 1);
});

test('stops at the limit', () => {
  assert.equal(editDistance('methane', 'octane', 1), 2);
  assert.equal(editDistance('a'.repeat(200), 'b', 3), 4);
});
