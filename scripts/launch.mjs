/**
 * `npm start`: bundles server.ts (the production entry) and scripts/next-build.ts, with the TypeScript
 * they import, into build/server/ with esbuild; builds the web app if its sources changed; then runs the
 * server's bundle. Packages are not bundled: they stay imports of node_modules.
 *
 * This file is plain JavaScript, so the server needs no TypeScript loader at run time. Run through tsx,
 * the server kept tsx's loader thread, with a V8 heap of its own, alive for its whole life: peak RSS
 * under the benchmark was ~70 MB higher (408 → 337 MB, measured).
 *
 * The bundle is rebuilt whenever a file it was built from changed (their digests are kept beside it),
 * so it is never stale, and a start with nothing changed skips esbuild (about a second of CPU). Each
 * build writes its own temporary files and renames them into place, so servers starting side by side
 * (the test suites) never import a half-written bundle. Stack traces point into the bundle, whose
 * `// lib/…` comments name each source file; `NODE_OPTIONS=--enable-source-maps` maps them back.
 *
 * The server is told its build (CHEMFLOW_BUILD_ID, the digest of the inputs' digests), so that it can
 * keep the data layers it parsed between starts of the same build (lib/chem/parsed-data-cache.ts).
 */

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

process.env.NEXT_TELEMETRY_DISABLED = '1';
const root = resolve(import.meta.dirname, '..');
const outdir = join(root, 'build', 'server');

/** The bundle's inputs (paths relative to the root) with the digest of each when it was built. */
const inputsFile = join(outdir, 'inputs.json');
const digest = (path) =>
  createHash('sha256')
    .update(readFileSync(join(root, path)))
    .digest('hex');

function bundleIsCurrent() {
  try {
    const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
    return Object.entries(inputs).every(([path, recorded]) => digest(path) === recorded);
  } catch {
    return false; // no bundle yet, or an input that is gone
  }
}

function writeInPlace(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

if (!bundleIsCurrent()) {
  const { outputFiles, metafile } = buildSync({
    entryPoints: [join(root, 'server.ts'), join(root, 'scripts', 'next-build.ts')],
    absWorkingDir: root,
    outdir,
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  mkdirSync(outdir, { recursive: true });
  // The maps first, so a bundle in place always has its map; the digests last, once the bundle is whole.
  const isMap = (file) => file.path.endsWith('.map');
  for (const file of [...outputFiles.filter(isMap), ...outputFiles.filter((file) => !isMap(file))])
    writeInPlace(file.path, file.contents);
  // This file (the build's options) and package.json (esbuild's version, what is external) count too.
  const sources = [...Object.keys(metafile.inputs), 'scripts/launch.mjs', 'package.json'];
  const inputs = Object.fromEntries(sources.map((path) => [path, digest(path)]));
  writeInPlace(inputsFile, JSON.stringify(inputs));
}
const { ensureNextBuild } = await import(pathToFileURL(join(outdir, 'next-build.mjs')).href);
try {
  await ensureNextBuild();
} catch (error) {
  console.error(`Could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
// The parsed data layers are kept between starts of this build (lib/chem/parsed-data-cache.ts).
process.env.CHEMFLOW_BUILD_ID = createHash('sha256').update(readFileSync(inputsFile)).digest('hex');
await import(pathToFileURL(join(outdir, 'server.mjs')).href);
