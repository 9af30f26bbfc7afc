/**
 * Runs operator CLI commands (lib/cli/run.ts) one at a time for test/support/cli-in-process.ts, inside a
 * worker whose environment is one server's. What a command writes to stdout and stderr is collected and
 * sent back with its exit status; the waiting thread is woken through the shared signal.
 */
import { type MessagePort, parentPort } from 'node:worker_threads';

export interface CliRequest {
  args: string[];
  port: MessagePort;
  signal: Int32Array;
}
export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

const output = { stdout: '', stderr: '' };
const collect = (stream: 'stdout' | 'stderr') =>
  ((chunk: string | Uint8Array) => {
    output[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
process.stdout.write = collect('stdout');
process.stderr.write = collect('stderr');

// A CLI that cannot even load answers every command with why, rather than leaving the caller waiting.
const loaded = import('../../lib/cli/run.ts').then(
  (cli) => cli.run,
  (error: Error) => async () => {
    output.stderr += `The CLI did not load: ${error.stack ?? error}\n`;
    return 1;
  },
);

function reply({ port, signal }: CliRequest, result: CliResult): void {
  port.postMessage(result);
  port.close();
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

async function runOne(request: CliRequest): Promise<void> {
  output.stdout = '';
  output.stderr = '';
  let status = 1;
  try {
    status = await (await loaded)(request.args);
  } catch (error) {
    output.stderr += `Failed: ${(error as Error).stack ?? error}\n`;
  }
  reply(request, { status, ...output });
}

// One command at a time, in the order sent: each has the output streams to itself.
let queue = Promise.resolve();
parentPort!.on('message', (request: CliRequest) => {
  queue = queue.then(() => runOne(request));
});
