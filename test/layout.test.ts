/**
 * The README's layout table against the repository: every folder at the top and every folder of lib/
 * has a row, and every row names something that exists in git. A move or a new folder without its row
 * (or a row left behind) fails here.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');

function layoutRows(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.split('<!-- layout:start -->')[1]?.split('<!-- layout:end -->')[0];
  assert.ok(table, 'README.md has a layout table between <!-- layout:start --> and <!-- layout:end -->');
  return [...table.matchAll(/^\| *`([^`]+)` *\|/gm)].map((m) => m[1]);
}

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

test('every top-level folder and every lib/ folder has a row in the README layout table', () => {
  const rows = new Set(layoutRows());
  const topFolders = new Set(
    tracked.filter((f) => f.includes('/') && !f.startsWith('.')).map((f) => `${f.split('/')[0]}/`),
  );
  const libFolders = new Set(
    tracked.filter((f) => f.startsWith('lib/') && f.split('/').length > 2).map((f) => `lib/${f.split('/')[1]}/`),
  );
  const missing = [...topFolders, ...libFolders].filter((folder) => !rows.has(folder));
  assert.deepEqual(missing, [], 'folders without a row');
});

test('every row of the README layout table names something in the repository', () => {
  const exists = (row: string) =>
    row === 'lib/*.ts'
      ? tracked.some((f) => /^lib\/[^/]+\.ts$/.test(f))
      : tracked.some((f) => f === row || f.startsWith(row.endsWith('/') ? row : `${row}/`));
  assert.deepEqual(
    layoutRows().filter((row) => !exists(row)),
    [],
    'rows naming nothing',
  );
});
