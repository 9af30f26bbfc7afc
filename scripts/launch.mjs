/**
 * `npm start`: bundles server.ts (the production entry) and scripts/next-build.ts, with the TypeScript
 * they import, into build/server/ with esbuild; builds the web app if its sources changed; then runs the
 * server's bundle. Packages are not bundled: they stay imports of node_modules.
 *
 * This file is plain JavaScript, so the server needs no TypeScript loader at run time. Run through tsx,
 * the server kept tsx's loader thread, with a V8 heap of its own, alive for its whole life: peak RSS
 * under the benchmark was ~70 MB higher (408 → 337 MB, measured).
 *
 * Bundling takes well under a second, so it runs at every start and the bundle is never stale. Each
 * start writes its own temporary files and renames them into place, so servers starting side by side
 * (the test suites) never import a half-written bundle. Stack traces point into the bundle, whose
 * `// lib/…` comments name each source file; `NODE_OPTIONS=--enable-source-maps` maps them back.
 */

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

process.env.NEXT_TELEMETRY_DISABLED = '1';
const root = resolve(import.meta.dirname, '..');
const outdir = join(root, 'build', 'server');

const { outputFiles } = buildSync({
  entryPoints: [join(root, 'server.ts'), join(root, 'scripts', 'next-build.ts')],
  outdir,
  entryNames: '[name]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  write: false,
  logLevel: 'warning',
});
mkdirSync(outdir, { recursive: true });
// The maps first, so a bundle in place always has its map.
const isMap = (file) => file.path.endsWith('.map');
for (const file of [...outputFiles.filter(isMap), ...outputFiles.filter((file) => !isMap(file))]) {
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
const { ensureNextBuild } = await import(pathToFileURL(join(outdir, 'next-build.mjs')).href);
try {
  ensureNextBuild();
} catch (error) {
  console.error(`Could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
await import(pathToFileURL(join(outdir, 'server.mjs')).href);
