/**
 * The operator CLI run inside the test process: one worker thread per server environment loads the CLI
 * once and then runs each command in milliseconds, where a process per command spent about two seconds
 * of CPU starting Node and loading every module. The caller waits synchronously, as it did for a child
 * process, so tests read the same { status, stdout, stderr }. A worker has an environment of its own,
 * so each sees its server's DATABASE_URL and secrets exactly as a separate process would.
 *
 * A command's stdout and stderr are collected whole, so it must not wait on this thread (a stand-in
 * server in the test process): such tests spawn the real binary instead.
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
    worker = new Worker(new URL('./cli-thread.mjs', import.meta.url), { env: { ...env } });
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
