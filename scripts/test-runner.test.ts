import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planUnits } from './test-runner.ts';

const FILES: Record<string, string> = {
  'lib/a.test.ts': '',
  'lib/b.test.ts': '',
  'lib/c.test.ts': '// test-isolation: process (reads an environment variable once)',
  'lib/d.test.ts': '',
  'lib/e.test.ts': '',
  'test/system/crash.test.ts': '// test-lane: serial',
  'test/system/protocol.test.ts': '',
  'e2e/usage.test.ts': '',
};

test('server and browser suites run alone, browsers first; the rest share shards; serial files run last', () => {
  const { parallel, serial } = planUnits(Object.keys(FILES), 2, (file) => FILES[file]);
  assert.deepEqual(
    parallel.map((unit) => unit.files),
    [
      ['e2e/usage.test.ts'],
      ['test/system/protocol.test.ts'],
      ['lib/a.test.ts', 'lib/d.test.ts'],
      ['lib/b.test.ts', 'lib/e.test.ts'],
      ['lib/c.test.ts'],
    ],
  );
  assert.deepEqual(
    serial.map((unit) => unit.files),
    [['test/system/crash.test.ts']],
  );
  assert.match(parallel[2].label, /shard 1 of 2 \(2 files\)/);
});

test('no more shards than files', () => {
  const { parallel } = planUnits(['lib/a.test.ts'], 8, () => '');
  assert.deepEqual(
    parallel.map((unit) => unit.files),
    [['lib/a.test.ts']],
  );
});
