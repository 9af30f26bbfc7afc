/**
 * `npm test`: prepares what the suites need (a current production build of the web app, built while the
 * in-process files run) and runs every
 * `*.test.ts` with node:test through tsx, several processes at once (test-runner.ts). Suites start their
 * own servers and databases; PostgreSQL and Redis are the machine's (127.0.0.1), used with a fresh
 * database/prefix.
 *
 * `npm run test:fast` (`--fast`) runs the unit and in-process tests only: everything outside
 * test/system/ and e2e/, the suites that start a real server or a browser, one shared process per core.
 * It needs no web build.
 * `npm test -- <files>` runs the files given.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { PROJECT_ROOT as ROOT } from '../lib/project-root.ts';
import { ensureNextBuild } from './next-build.ts';
import { runTestFiles, SYSTEM_SUITES } from './test-runner.ts';

const TEST_ROOTS = ['lib', 'app', 'components', 'scripts', 'test', 'tools', 'e2e'];
const SKIP = new Set(['node_modules', 'generated', '.next']);
/**
 * How many processes share the in-process files in a full run: more than the cores, so that the short
 * shards fill the gaps the long suites leave, yet few enough that each loads RDKit and the data once.
 */
const FULL_RUN_SHARDS = 8;

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
// The in-process files run while the web app builds; the server and browser suites wait for the build.
const built = fast ? undefined : ensureNextBuild();
process.exit(await runTestFiles(ROOT, files, fast ? availableParallelism() : FULL_RUN_SHARDS, built));
