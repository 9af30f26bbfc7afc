/**
 * `npm run test:fast`: the in-process tests, spread over a few processes that each run many files.
 * A process per file (what `npm test` does) spends ~0.45 s of CPU starting Node and tsx; over ~80 files
 * that was a third of the loop's time on two cores. Files share a process here, so a file that sets
 * process-wide state before the code under test reads it (an environment variable a module caches)
 * declares `// test-isolation: process` and gets a process of its own.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const OWN_PROCESS_MARK = '// test-isolation: process';

function runShard(root: string, files: string[]): Promise<{ files: string[]; status: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test-reporter=spec', join(root, 'scripts/test-shard.ts'), ...files],
      {
        cwd: root,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => done({ files, status: status ?? 1, output }));
  });
}

/** Runs the files and answers the exit status: 0 when every process passed. */
export async function runFastTests(root: string, files: string[]): Promise<number> {
  const alone = files.filter((file) => readFileSync(join(root, file), 'utf8').includes(OWN_PROCESS_MARK));
  const shared = files.filter((file) => !alone.includes(file));
  // One process per core: more (tried: two per core) was slower on a busy machine and pushed the
  // lock-wait and transaction-timeout tests past their deadlines.
  const shards: string[][] = Array.from({ length: availableParallelism() }, () => []);
  for (const [i, file] of shared.entries()) shards[i % shards.length].push(file);
  const groups = [...shards.filter((shard) => shard.length), ...alone.map((file) => [file])];
  const results = await Promise.all(
    groups.map((group) =>
      runShard(root, group).then((result) => {
        process.stdout.write(result.output);
        return result;
      }),
    ),
  );
  const failed = results.filter((result) => result.status !== 0);
  for (const result of failed) console.error(`✖ failures in the process running: ${result.files.join(' ')}`);
  console.log(
    `test:fast: ${files.length} files in ${groups.length} processes; ${failed.length ? 'FAILED' : 'all passed'}`,
  );
  return failed.length ? 1 : 0;
}
