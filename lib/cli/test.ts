/**
 * `npm test`: prepares what the suites need (generated Prisma clients, a current production build of
 * the web app) and runs every `*.test.ts` with node:test through tsx. Suites start their own servers
 * and databases; PostgreSQL and Redis are the machine's (127.0.0.1), used with a fresh database/prefix.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT as ROOT } from '../project-root.ts';
import { ensureNextBuild } from './next-build.ts';

const TEST_ROOTS = ['lib', 'app', 'components', 'e2e', 'test', 'tools'];
const SKIP = new Set(['node_modules', 'generated', '.next']);

function findTests(dir: string, out: string[]): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) findTests(path, out);
    else if (entry.name.endsWith('.test.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

process.env.NEXT_TELEMETRY_DISABLED = '1';
ensureNextBuild();

const only = process.argv.slice(2);
const files = only.length ? only : TEST_ROOTS.flatMap((root) => findTests(join(ROOT, root), [])).sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  cwd: ROOT,
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
