/**
 * The layering of lib/ that docs/architecture.md describes, checked against the code: each product
 * folder may import only folders listed below it in the doc's layer table (type-only imports too), so
 * no import points back up the call chain and no two folders import each other. The files at the root
 * of lib/ are the bottom layer.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const ROOT_LAYER = '(root)';

/** The folders of docs/architecture.md's layer table, top of the call chain first. */
function documentedLayers(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const table = doc.split('<!-- layers:start -->')[1]?.split('<!-- layers:end -->')[0];
  assert.ok(table, 'docs/architecture.md has a layer table between <!-- layers:start --> and <!-- layers:end -->');
  return [...table.matchAll(/^\| *`lib\/([^`]*)` *\|/gm)].map((m) =>
    m[1].endsWith('/') ? m[1].slice(0, -1) : ROOT_LAYER,
  );
}

function productFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed.split('\n').filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts') && !f.includes('/generated/'));
}

const folderOf = (file: string) => (file.split('/').length > 2 ? file.split('/')[1] : ROOT_LAYER);
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

function imports(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...source.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1] ?? m[2])));
}

test('every lib/ folder is in the layer table of docs/architecture.md, once', () => {
  const layers = documentedLayers();
  assert.equal(new Set(layers).size, layers.length, `a folder is listed twice: ${layers.join(', ')}`);
  const folders = new Set(productFiles().map(folderOf));
  assert.deepEqual([...folders].filter((f) => !layers.includes(f)).sort(), [], 'folders missing from the table');
  assert.deepEqual(
    layers.filter((f) => !folders.has(f)),
    [],
    'folders in the table that hold no code',
  );
});

test('lib/ imports only point down the layer table: no arrow back up, no cycle between folders', () => {
  const layers = documentedLayers();
  const rank = new Map(layers.map((folder, i) => [folder, i]));
  const upward: string[] = [];
  for (const file of productFiles()) {
    const from = folderOf(file);
    for (const target of imports(file)) {
      // package.json is read for the version the MCP server reports.
      assert.ok(
        target.startsWith('lib/') || target === 'package.json',
        `${file} imports ${target}, outside lib/: product code stands on its own`,
      );
      if (!target.startsWith('lib/')) continue;
      const to = folderOf(target);
      if (to !== from && rank.get(to)! < rank.get(from)!) upward.push(`${file} → ${target} (${from} is below ${to})`);
    }
  }
  assert.deepEqual(upward, []);
});

// chem may find its bundled data files from the project root and share its registered compounds across
// module copies, and imports nothing else outside itself.
test('chem imports nothing outside itself but the project root and the process-shared holder', () => {
  const outside = productFiles()
    .filter((f) => folderOf(f) === 'chem')
    .flatMap((f) =>
      imports(f)
        .filter((t) => folderOf(t) !== 'chem' && t !== 'lib/project-root.ts' && t !== 'lib/process-shared.ts')
        .map((t) => `${f} → ${t}`),
    );
  assert.deepEqual(outside, []);
});

/** Product code outside lib/ that loads lib/: the server entry and the Next app. */
function entryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'server.ts', 'app'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed.split('\n').filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'));
}

// server.ts and Next's bundle each load their own copy of lib/; what they share is shared in one place.
test('state shared across module copies lives in one holder: lib/process-shared.ts', () => {
  const holders = [...productFiles(), ...entryFiles()].filter(
    (file) => file !== 'lib/process-shared.ts' && /\bglobalThis\b/.test(readFileSync(join(ROOT, file), 'utf8')),
  );
  assert.deepEqual(holders, [], 'files keeping state on globalThis (use processShared instead)');
});

// The services built once per process (database, Redis, limiter, recorders) may have been built by the
// other copy of lib/, whose error classes are not this copy's: their errors are recognised by code.
test('errors of the shared services are recognised by code, never by instanceof outside their own file', () => {
  const serviceFolders = new Set(['db', 'redis', 'limits', 'usage']);
  const classes = new Map<string, string>();
  for (const file of productFiles().filter((f) => serviceFolders.has(folderOf(f))))
    for (const [, name] of readFileSync(join(ROOT, file), 'utf8').matchAll(/export class (\w+) extends Error\b/g))
      classes.set(name, file);
  assert.ok(classes.has('LimiterUnavailableError'), 'the limiter error is found by this check');
  const checks = [...productFiles(), ...entryFiles()].flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/instanceof (\w+)/g)]
      .filter(([, name]) => classes.has(name) && classes.get(name) !== file)
      .map(([, name]) => `${file}: instanceof ${name}`),
  );
  assert.deepEqual(checks, []);
});
