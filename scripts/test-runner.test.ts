import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import { planUnits, runTestFiles } from './test-runner.ts';

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
  assert.deepEqual(
    [...parallel, ...serial].filter((unit) => unit.needsBuild).map((unit) => unit.files[0]),
    [
      'e2e/page-fit.test.ts',
      'e2e/docs.test.ts',
      'test/system/cli-bind-code.test.ts',
      'test/system/protocol.test.ts',
      'test/system/crash.test.ts',
    ],
    'the server and browser suites wait for the build, the in-process files do not',
  );
});

/** A folder of real test files, run by the real runner: an in-process file leaves a mark when it runs. */
function scratchProject(t: { after: (fn: () => void) => void }) {
  const root = mkdtempSync(join(tmpdir(), 'chemflow-runner-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  const mark = join(root, 'ran');
  const files = {
    'lib/unit.test.ts': `import { test } from 'node:test';\nimport { writeFileSync } from 'node:fs';\ntest('unit', () => writeFileSync(${JSON.stringify(mark)}, ''));\n`,
    'test/system/suite.test.ts': `import { test } from 'node:test';\ntest('suite', () => {});\n`,
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return { root, files: Object.keys(files), mark };
}

test('the in-process files run while the build is still going; the suites that need it start after it', async (t) => {
  const { root, files, mark } = scratchProject(t);
  // A build that ends only once the in-process file has run: the runner would wait forever had it held it back.
  const build = (async () => {
    while (!existsSync(mark)) await sleep(50);
  })();
  assert.equal(await runTestFiles(root, files, 1, build), 0);
});

test('a failed build fails the run: the suites that need it are not run, the others are', async (t) => {
  const { root, files, mark } = scratchProject(t);
  assert.equal(await runTestFiles(root, files, 1, Promise.reject(new Error('next build failed.'))), 1);
  assert.ok(existsSync(mark), 'the in-process file ran');
});

test('no more shards than files', () => {
  const { parallel } = planUnits(['lib/a.test.ts'], 8, () => '');
  assert.deepEqual(
    parallel.map((unit) => unit.files),
    [['lib/a.test.ts']],
  );
});
