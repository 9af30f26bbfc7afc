/**
 * `npm test`: prepares what the suites need (a current production build of the web app) and runs every
 * `*.test.ts` with node:test through tsx, several files at once (test-runner.ts). Suites start their own servers and databases; PostgreSQL and
 * Redis are the machine's (127.0.0.1), used with a fresh database/prefix.
 *
 * `npm run test:fast` (`--fast`) runs the unit and in-process tests only: everything outside
 * test/system/ and e2e/, the suites that start a real server or a browser, in a few shared processes
 * (fast-tests.ts). It needs no web build.
 * `npm test -- <files>` runs the files given.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT as ROOT } from '../lib/project-root.ts';
import { runFastTests } from './fast-tests.ts';
import { ensureNextBuild } from './next-build.ts';
import { runTestFiles } from './test-runner.ts';

const TEST_ROOTS = ['lib', 'app', 'components', 'scripts', 'test', 'tools', 'e2e'];
/** The suites that start a real server or a browser: left out by --fast. */
const SYSTEM_SUITES = ['test/system/', 'e2e/'];
const SKIP = new Set(['node_modules', 'generated', '.next']);

function findTests(dir: string, out: string[]): string[] {
  let entries: Dirent[];
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
const args = process.argv.slice(2);
const fast = args.includes('--fast');
const only = args.filter((arg) => arg !== '--fast');
const everything = TEST_ROOTS.flatMap((root) => findTests(join(ROOT, root), [])).sort();
const files = only.length
  ? only
  : fast
    ? everything.filter((file) => !SYSTEM_SUITES.some((dir) => file.startsWith(dir)))
    : everything;
if (fast) process.exit(await runFastTests(ROOT, files));
ensureNextBuild();
process.exit(await runTestFiles(ROOT, files));
