import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planUnits } from './test-runner.ts';

const FILES: Record<string, string> = {
  'lib/a.test.ts': 'x'.repeat(50),
  'lib/b.test.ts': 'x'.repeat(40),
  'lib/c.test.ts': '// test-isolation: process (reads an environment variable once)',
  'lib/d.test.ts': 'x'.repeat(30),
  'lib/e.test.ts': 'x'.repeat(20),
  'test/system/crash.test.ts': '// test-lane: serial',
  'test/system/protocol.test.ts': '',
  'test/system/cli-bind-code.test.ts': '// test-isolation: process (sets KEY_HASH_SECRET_FILE)',
  'e2e/usage.test.ts': 'x'.repeat(10),
  'e2e/support.test.ts': 'x'.repeat(40),
  'e2e/page-fit.test.ts': 'x'.repeat(90),
  'e2e/docs.test.ts': 'x'.repeat(20),
};

test('browser suites first, then server suites, three to a process, heaviest first; in-process files dealt by size; marked files alone; serial last', () => {
  const { parallel, serial } = planUnits(Object.keys(FILES), 2, (file) => FILES[file]);
  assert.deepEqual(
    parallel.map((unit) => unit.files),
    [
      ['e2e/page-fit.test.ts'],
      ['e2e/docs.test.ts', 'e2e/support.test.ts', 'e2e/usage.test.ts'],
      ['test/system/cli-bind-code.test.ts'],
      ['test/system/protocol.test.ts'],
      ['lib/a.test.ts', 'lib/e.test.ts'],
      ['lib/b.test.ts', 'lib/d.test.ts'],
      ['lib/c.test.ts'],
    ],
  );
  assert.deepEqual(
    serial.map((unit) => unit.files),
    [['test/system/crash.test.ts']],
  );
  assert.equal(parallel[1].label, 'browser suites: e2e/docs.test.ts, e2e/support.test.ts, e2e/usage.test.ts');
});

test('no more shards than files', () => {
  const { parallel } = planUnits(['lib/a.test.ts'], 8, () => '');
  assert.deepEqual(
    parallel.map((unit) => unit.files),
    [['lib/a.test.ts']],
  );
});
