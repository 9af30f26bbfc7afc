/**
 * Builds the Next.js app when the sources changed since the last build, so `npm start` on a fresh
 * clone (or after a pull) serves current pages without a separate build command. `npm run build`
 * runs it ahead of a start (the Docker image does).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../lib/project-root.ts';

const STAMP = join(PROJECT_ROOT, '.next', 'chemflow-source-stamp');
// prisma/schema.prisma stands in for the generated clients (skipped below), which the build bundles.
const SOURCES = [
  'app',
  'components',
  'lib',
  'prisma/schema.prisma',
  'public',
  'next.config.js',
  'package.json',
  'tsconfig.json',
];
const SKIP = new Set(['generated', 'node_modules']);

function listFiles(path: string, out: string[]): void {
  if (!existsSync(path)) return;
  if (statSync(path).isFile()) return void out.push(path);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.endsWith('.test.ts')) continue;
    listFiles(join(path, entry.name), out);
  }
}

/** A digest of every source file's path and content. */
function sourceFingerprint(): string {
  const files: string[] = [];
  for (const source of SOURCES) listFiles(join(PROJECT_ROOT, source), files);
  const hash = createHash('sha256');
  for (const file of files.sort()) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/**
 * Builds the web app unless the last build is of the current sources. Asynchronous, so that `npm test`
 * runs the suites that need no server while it builds.
 */
export async function ensureNextBuild(): Promise<void> {
  const fingerprint = sourceFingerprint();
  const built =
    existsSync(join(PROJECT_ROOT, '.next', 'BUILD_ID')) &&
    existsSync(STAMP) &&
    readFileSync(STAMP, 'utf8') === fingerprint;
  if (built) return;
  console.log('Building the web app (first start or changed sources; about a minute)…');
  const build = spawn(process.execPath, [join(PROJECT_ROOT, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const status = await new Promise<number | null>((done) => build.once('close', done));
  if (status !== 0) throw new Error('next build failed; see the output above.');
  writeFileSync(STAMP, fingerprint);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureNextBuild();
