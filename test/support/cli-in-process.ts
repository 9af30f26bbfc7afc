/**
 * The operator CLI run inside the test process: one worker thread per server environment loads the CLI
 * once and then runs each command in milliseconds, where a process per command spent about two seconds
 * of CPU starting Node and loading every module. The caller waits synchronously, as it did for a child
 * process, so tests read the same { status, stdout, stderr }. A worker has an environment of its own,
 * so each sees its server's DATABASE_URL and secrets exactly as a separate process would.
 *
 * While a command runs the calling thread waits, so a command that needs it (a stand-in server in the
 * test process, load loops that must keep going) is run with runCliInProcessAsync instead.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { CliRequest, CliResult } from './cli-thread-commands.ts';

/** Far above any command's time; reached only if a command hangs. */
const COMMAND_TIMEOUT_MS = 120_000;
const workers = new Map<string, Worker>();

function workerFor(env: NodeJS.ProcessEnv): Worker {
  const key = JSON.stringify(env);
  let worker = workers.get(key);
  if (!worker) {
    // Unset variables are left out, as a child process's environment leaves them out (not "undefined").
    const defined = Object.entries(env).filter(([, value]) => value !== undefined) as [string, string][];
    worker = new Worker(new URL('./cli-thread.mjs', import.meta.url), { env: Object.fromEntries(defined) });
    worker.unref(); // an idle worker does not keep the test process alive
    // One that died (it cannot: commands catch their errors) is replaced by the next command.
    worker.once('error', () => workers.delete(key));
    workers.set(key, worker);
  }
  return worker;
}

export function runCliInProcess(env: NodeJS.ProcessEnv, args: string[]): CliResult {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  workerFor(env).postMessage({ args, port: port2, signal } satisfies CliRequest, [port2]);
  const waited = Atomics.wait(signal, 0, 0, COMMAND_TIMEOUT_MS);
  const result = receiveMessageOnPort(port1)?.message as CliResult | undefined;
  port1.close();
  if (waited === 'timed-out' || !result)
    throw new Error(`cli ${args.join(' ')} did not finish within ${COMMAND_TIMEOUT_MS / 1000} s`);
  return result;
}

/** The same, without blocking this thread: for commands that talk to it, or run beside load it sends. */
export function runCliInProcessAsync(env: NodeJS.ProcessEnv, args: string[]): Promise<CliResult> {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  workerFor(env).postMessage({ args, port: port2, signal } satisfies CliRequest, [port2]);
  return new Promise((done) =>
    port1.once('message', (result: CliResult) => {
      port1.close();
      done(result);
    }),
  );
}
