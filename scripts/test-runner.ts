/**
 * `npm test`'s scheduler. Every file runs in a process of its own, one per core at once. Files marked
 * `// test-lane: serial` (they measure load, kill a server or stop it on a signal, so a busy machine
 * changes what they see) run afterwards, one at a time, with nothing else running.
 *
 * Each file's output is printed whole when it ends, so files never interleave; the summary names the
 * failed files, the slowest ones and the totals.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const SERIAL_MARK = '// test-lane: serial';
/** Far beyond the slowest file: a file still running then is stuck, and is stopped as a failure. */
const FILE_TIMEOUT_MS = 15 * 60_000;
/** Started first, since they take longest: a long file started last would finish alone. */
const SLOW_FIRST = ['e2e/', 'test/system/'];

/** The files running now: each in a process group of its own, stopped whole (its servers and browsers too). */
const running = new Set<number>();
const stopGroup = (pid: number) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const pid of running) stopGroup(pid);
    process.exit(130);
  });

type FileResult = { file: string; status: number; seconds: number; tests: number; passed: number; failed: number };

function count(output: string, label: string): number {
  const match = output.match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'));
  return match ? Number(match[1]) : 0;
}

function runFile(root: string, file: string): Promise<FileResult> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child.pid!);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const stuck = setTimeout(() => {
      output += `\n✖ ${file} was still running after ${FILE_TIMEOUT_MS / 60_000} minutes; stopped.\n`;
      stopGroup(child.pid!);
    }, FILE_TIMEOUT_MS);
    child.on('close', (status) => {
      clearTimeout(stuck);
      running.delete(child.pid!);
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(`\n━━ ${file} (${seconds.toFixed(1)} s)\n${output}`);
      done({
        file,
        status: status ?? 1,
        seconds,
        tests: count(output, 'tests'),
        passed: count(output, 'pass'),
        failed: count(output, 'fail'),
      });
    });
  });
}

/** Runs `files` with at most `concurrency` at once, longest kinds first. */
async function runPool(root: string, files: string[], concurrency: number): Promise<FileResult[]> {
  const rank = (file: string) => {
    const index = SLOW_FIRST.findIndex((prefix) => file.startsWith(prefix));
    return index === -1 ? SLOW_FIRST.length : index;
  };
  const queue = [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const results: FileResult[] = [];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await runFile(root, file));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return results;
}

function summarise(results: FileResult[], wallSeconds: number, concurrency: number): void {
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 15);
  console.log('\n━━ slowest files');
  for (const result of slowest) console.log(`${result.seconds.toFixed(1).padStart(7)} s  ${result.file}`);
  const sum = (pick: (result: FileResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const failedFiles = results.filter((result) => result.status !== 0);
  console.log(
    `\n${results.length} files, ${sum((r) => r.tests)} tests: ${sum((r) => r.passed)} passed, ${sum((r) => r.failed)} failed; ` +
      `${Math.round(wallSeconds)} s wall time, ${concurrency} files at a time (${Math.round(sum((r) => r.seconds))} s of file time)`,
  );
  for (const result of failedFiles) console.error(`✖ ${result.file} failed (exit ${result.status})`);
}

/** Runs the files and answers the exit status: 0 when every file passed. */
export async function runTestFiles(root: string, files: string[]): Promise<number> {
  const started = performance.now();
  // One file per core: the suites are bound by CPU, so more at once gains little, and three on two cores
  // slowed answers enough to upset tests that time them.
  const concurrency = Number(process.env.TEST_CONCURRENCY) || availableParallelism();
  const serial = files.filter((file) => readFileSync(join(root, file), 'utf8').includes(SERIAL_MARK));
  const results = [
    ...(await runPool(
      root,
      files.filter((file) => !serial.includes(file)),
      concurrency,
    )),
    ...(await runPool(root, serial, 1)),
  ];
  summarise(results, (performance.now() - started) / 1000, concurrency);
  return results.every((result) => result.status === 0) ? 0 : 1;
}
