/**
 * `npm start`'s entry. It bundles lib/cli/start.ts and the TypeScript it imports into
 * build/server/start.mjs with esbuild, then runs that bundle. Packages are not bundled: they stay
 * imports of node_modules.
 *
 * This file is plain JavaScript, so the server needs no TypeScript loader at run time. Run through tsx,
 * the server kept tsx's loader thread, with a V8 heap of its own, alive for its whole life: peak RSS
 * under the benchmark was ~70 MB higher (408 → 337 MB, measured).
 *
 * Bundling takes well under a second, so it runs at every start and the bundle is never stale. Each
 * start writes its own temporary file and renames it into place, so servers starting side by side
 * (the test suites) never import a half-written bundle. Stack traces point into the bundle, whose
 * `// lib/…` comments name each source file; `NODE_OPTIONS=--enable-source-maps` maps them back.
 */
import { buildSync } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
const outfile = join(root, 'build', 'server', 'start.mjs');

const { outputFiles } = buildSync({
  entryPoints: [join(root, 'lib', 'cli', 'start.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  write: false,
  logLevel: 'warning',
});
mkdirSync(join(root, 'build', 'server'), { recursive: true });
// The map first, so a bundle in place always has its map.
const isMap = (file) => file.path.endsWith('.map');
for (const file of [...outputFiles.filter(isMap), ...outputFiles.filter((file) => !isMap(file))]) {
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
await import(pathToFileURL(outfile).href);
