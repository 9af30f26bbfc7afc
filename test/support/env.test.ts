import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setEnvForTest } from './env.ts';

const NAME = 'CHEMFLOW_ENV_HELPER_PROBE';
delete process.env[NAME];

test('a variable changed several times in one test…', (t) => {
  setEnvForTest(t, NAME, undefined);
  setEnvForTest(t, NAME, 'first');
  setEnvForTest(t, NAME, 'second');
  assert.equal(process.env[NAME], 'second');
});

test('…is back to what it was before the test once it ends', () => {
  assert.equal(process.env[NAME], undefined);
});
