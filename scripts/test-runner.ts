/**
 * `npm test`'s scheduler. Files share processes (test-shard.ts runs several one after another): starting
 * Node and tsx costs ~0.45 s of CPU, and loading Playwright, RDKit, the data layers and the CLI's modules
 * a few seconds more, paid once per process instead of once per file. As many processes run at once as
 * there are cores:
 * - the browser suites (e2e/), three to a process, start first; then the server suites (test/system/),
 *   three to a process; each suite still starts servers and browsers of its own;
 * - the other files, units and in-process tests, are dealt into `shards` processes;
 * - a file that sets process-wide state before the code under test reads and caches it (an environment
 *   variable lib/ reads once) carries `// test-isolation: process` and runs alone;
 * - files marked `// test-lane: serial` (they measure load, kill a server or stop it on a signal, so a
 *   busy machine changes what they see) run afterwards, one at a time, with nothing else running.
 *
 * Each unit's output is printed whole when it ends, so units never interleave; the summary names the
 * failed units, the ones that took most CPU and the totals.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const SERIAL_MARK = '// test-lane: serial';
const OWN_PROCESS_MARK = '// test-isolation: process';
/** The folders of the suites that start real servers or browsers: browser suites first. `--fast` leaves them out. */
export const SYSTEM_SUITES = ['e2e/', 'test/system/'];
/** Far beyond the slowest unit: a unit still running then is stuck, and is stopped as a failure. */
const UNIT_TIMEOUT_MS = 15 * 60_000;

/** Files run in one process: one file, or a shard of in-process test files. */
interface Unit {
  label: string;
  files: string[];
  /** Server or browser suites: they start the production server, so they wait for the web app's build. */
  needsBuild: boolean;
}

/** The units running now: each in a process group of its own, stopped whole (its servers and browsers too). */
const running = new Set<number>();
const stopGroup = (pid: number) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

interface UnitResult {
  label: string;
  status: number;
  seconds: number;
  /** CPU time of the unit's process and everything it started and waited for (servers, browsers). */
  cpuSeconds: number;
  tests: number;
  passed: number;
  failed: number;
}

function count(output: string, label: string): number {
  const match = output.match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'));
  return match ? Number(match[1]) : 0;
}

/**
 * The shell's `times` after the unit's process ends: its children's user and system CPU, which includes
 * every process the unit started and waited for. Written to a pipe of its own, apart from the output.
 */
const RUN_AND_TIME = '"$@" 3>&-; status=$?; times >&3; exit $status';

function childCpuSeconds(times: string): number {
  const children = times.trim().split('\n')[1] ?? '';
  return [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (total, [, minutes, seconds]) => total + Number(minutes) * 60 + Number(seconds),
    0,
  );
}

/** node:test marks the processes it runs; a unit is a test run of its own, even when the runner runs under a test. */
const { NODE_TEST_CONTEXT: _, ...UNIT_ENV } = process.env;

function runUnit(root: string, unit: Unit): Promise<UnitResult> {
  const started = performance.now();
  const node =
    unit.files.length === 1
      ? [process.execPath, '--import', 'tsx', '--test', '--test-reporter=spec', unit.files[0]]
      : [
          process.execPath,
          '--import',
          'tsx',
          '--test-reporter=spec',
          join(root, 'scripts/test-shard.ts'),
          ...unit.files,
        ];
  return new Promise((done) => {
    const child = spawn('/bin/sh', ['-c', RUN_AND_TIME, 'sh', ...node], {
      cwd: root,
      env: UNIT_ENV,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child.pid!);
    let output = '';
    let times = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.stdio[3]!.on('data', (chunk) => (times += chunk));
    const stuck = setTimeout(() => {
      output += `\n✖ ${unit.label} was still running after ${UNIT_TIMEOUT_MS / 60_000} minutes; stopped.\n`;
      stopGroup(child.pid!);
    }, UNIT_TIMEOUT_MS);
    child.on('close', (status) => {
      clearTimeout(stuck);
      running.delete(child.pid!);
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = childCpuSeconds(times);
      process.stdout.write(`\n━━ ${unit.label} (${seconds.toFixed(1)} s, ${cpuSeconds.toFixed(1)} CPU-s)\n${output}`);
      done({
        label: unit.label,
        status: status ?? 1,
        seconds,
        cpuSeconds,
        tests: count(output, 'tests'),
        passed: count(output, 'pass'),
        failed: count(output, 'fail'),
      });
    });
  });
}

/** Stands for a unit that could not run because the web app's build failed. */
const notRun = (unit: Unit): UnitResult => ({
  label: unit.label,
  status: 1,
  seconds: 0,
  cpuSeconds: 0,
  tests: 0,
  passed: 0,
  failed: 0,
});

/**
 * Runs the units in order, at most `concurrency` at once. While `build` is pending, only units that need no
 * build start; once it settles the rest go in order (or, if it failed, are counted as failed, not run).
 */
async function runPool(
  root: string,
  units: Unit[],
  concurrency: number,
  build: Promise<boolean>,
): Promise<UnitResult[]> {
  const queue = [...units];
  const results: UnitResult[] = [];
  let built: boolean | undefined;
  void build.then((ok) => (built = ok));
  const worker = async () => {
    while (queue.length) {
      const index = queue.findIndex((unit) => built !== undefined || !unit.needsBuild);
      if (index === -1) {
        await build;
        continue;
      }
      const [unit] = queue.splice(index, 1);
      results.push(unit.needsBuild && !built ? notRun(unit) : await runUnit(root, unit));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, units.length) }, worker));
  return results;
}

/** How many server or browser suites share a process: each still starts its own server. */
const SYSTEM_FILES_PER_PROCESS = 3;

/**
 * `files` dealt into `count` groups of about equal weight, heaviest first (longest processing time
 * first); a file's size stands in for how long it runs.
 */
function deal(files: readonly string[], count: number, weight: (file: string) => number): string[][] {
  const groups = Array.from({ length: Math.min(count, files.length) }, () => ({ files: [] as string[], weight: 0 }));
  for (const file of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lightest = groups.reduce((best, group) => (group.weight < best.weight ? group : best));
    lightest.files.push(file);
    lightest.weight += weight(file);
  }
  return groups.map((group) => group.files.sort());
}

/**
 * The units of `files`, in the order they start, and the serial lane's: the browser suites' processes,
 * then the server suites', then the in-process files' `shards`, then the files that need a process of
 * their own.
 */
export function planUnits(
  files: readonly string[],
  shards: number,
  read: (file: string) => string,
): { parallel: Unit[]; serial: Unit[] } {
  const text = new Map([...files].sort().map((file) => [file, read(file)]));
  const sorted = [...text.keys()];
  const weight = (file: string) => text.get(file)!.length;
  const serial = sorted.filter((file) => text.get(file)!.includes(SERIAL_MARK));
  const alone = (file: string) => !serial.includes(file) && text.get(file)!.includes(OWN_PROCESS_MARK);
  const [browser, server] = SYSTEM_SUITES.map((dir) =>
    sorted.filter((file) => file.startsWith(dir) && !serial.includes(file)),
  );
  const inProcess = sorted.filter((file) => ![...serial, ...browser, ...server].includes(file));
  const needsBuild = (group: string[]) => group.some((file) => SYSTEM_SUITES.some((dir) => file.startsWith(dir)));
  const label = (kind: string, group: string[]) =>
    group.length === 1
      ? group[0]
      : `${kind}: ${group.length > SYSTEM_FILES_PER_PROCESS ? `${group.length} files` : group.join(', ')}`;
  /** A kind's processes, the heaviest first, so that a long one does not start last and finish alone. */
  const processes = (kind: string, kindFiles: string[], count: (shared: string[]) => number): Unit[] => {
    const shared = kindFiles.filter((file) => !alone(file));
    const groups = [...deal(shared, count(shared), weight), ...kindFiles.filter(alone).map((file) => [file])];
    const total = (group: string[]) => group.reduce((sum, file) => sum + weight(file), 0);
    return groups
      .sort((a, b) => total(b) - total(a))
      .map((group) => ({ label: label(kind, group), files: group, needsBuild: needsBuild(group) }));
  };
  const suites = (shared: string[]) => Math.ceil(shared.length / SYSTEM_FILES_PER_PROCESS);
  return {
    parallel: [
      ...processes('browser suites', browser, suites),
      ...processes('server suites', server, suites),
      ...processes('in-process tests', inProcess, () => shards),
    ],
    serial: serial.map((file) => ({ label: file, files: [file], needsBuild: needsBuild([file]) })),
  };
}

function summarise(results: UnitResult[], wallSeconds: number, concurrency: number): void {
  const costliest = [...results].sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, 15);
  console.log('\n━━ the units that took most CPU');
  for (const result of costliest)
    console.log(
      `${result.cpuSeconds.toFixed(1).padStart(7)} CPU-s ${result.seconds.toFixed(1).padStart(7)} s  ${result.label}`,
    );
  const sum = (pick: (result: UnitResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const failed = results.filter((result) => result.status !== 0);
  console.log(
    `\n${results.length} processes, ${sum((r) => r.tests)} tests: ${sum((r) => r.passed)} passed, ${sum((r) => r.failed)} failed; ` +
      `${Math.round(wallSeconds)} s wall time, ${concurrency} at a time, ${Math.round(sum((r) => r.cpuSeconds))} CPU-s`,
  );
  for (const result of failed) console.error(`✖ ${result.label} failed (exit ${result.status})`);
}

/**
 * Runs the files and answers the exit status: 0 when every unit passed. `shards`: how many processes
 * share the in-process files (more than the cores lets them fill the gaps between the long suites).
 * `build`: the web app's build, if one is running; the server and browser suites start once it is done.
 */
export async function runTestFiles(
  root: string,
  files: string[],
  shards: number,
  build: Promise<void> = Promise.resolve(),
): Promise<number> {
  const started = performance.now();
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      for (const pid of running) stopGroup(pid);
      process.exit(130);
    });
  // One unit per core: the suites are bound by CPU, so more at once gains little, and three on two cores
  // slowed answers enough to upset tests that time them.
  const concurrency = Number(process.env.TEST_CONCURRENCY) || availableParallelism();
  const { parallel, serial } = planUnits(files, shards, (file) => readFileSync(join(root, file), 'utf8'));
  const built = build.then(
    () => true,
    (error: Error) => {
      console.error(`✖ ${error.message} The server and browser suites are not run.`);
      return false;
    },
  );
  const results = [...(await runPool(root, parallel, concurrency, built)), ...(await runPool(root, serial, 1, built))];
  summarise(results, (performance.now() - started) / 1000, concurrency);
  return results.every((result) => result.status === 0) ? 0 : 1;
}
