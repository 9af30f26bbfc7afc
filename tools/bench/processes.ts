/**
 * The processes the benchmark measures: the production server (npm start's code, as test/support/test-server.ts
 * starts it, but keeping its pid for the memory readings) and the bare SDK server of row 2. Peak RSS is
 * the kernel's VmHWM; writing 5 to /proc/<pid>/clear_refs resets it, so each row reports its own peak.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type EnvOverrides,
  freePort,
  isolatedEnv,
  ROOT,
  runCli,
  START_NODE_ARGS,
} from '../../test/support/test-server.ts';

export interface BenchProcess {
  pid: number;
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * A process's resident set in MB from /proc/<pid>/status: VmRSS now, or VmHWM, its peak. Null when
 * /proc does not have it (not Linux, or the process is gone).
 */
export function residentSetMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** VmHWM (peak resident set) of a process in MB, or null when /proc does not have it. */
export function peakRssMb(pid: number): number | null {
  return residentSetMb(pid, 'VmHWM');
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux everywhere). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time the process has used (user + system), in ms, or null when /proc does not have it. Unlike
 * throughput, CPU per request barely moves when other tenants slow this machine down.
 */
export function cpuTimeMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Starts a new peak-RSS window for the process (Linux ≥ 4.0; ignored elsewhere). */
export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Without clear_refs the reading is the process's lifetime peak, which only overstates it.
  }
}

/** What a started process keeps of its output for error messages: the last 16 KB. */
const OUTPUT_TAIL_CHARS = 16_384;

/**
 * Spawns `node args` and resolves once its output satisfies `ready`. Until then the output is kept
 * whole for the readiness check; after that only its tail, and the pipes are still drained (a full
 * pipe would stall the server). Checking a growing string on every chunk of a server that logs every
 * call once made the load generator, not the server, the bottleneck of later rows.
 */
function spawnUntil(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: (output: string) => boolean,
  what: string,
): Promise<{ child: ChildProcess; output: () => string; errorLines: () => string[] }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let started = false;
  const keep = (chunk: Buffer) => {
    output += chunk;
    if (started && output.length > 2 * OUTPUT_TAIL_CHARS) output = output.slice(-OUTPUT_TAIL_CHARS);
  };
  // Error lines are kept whole, however long the run: the tail above would lose early ones. They go to
  // stderr (lib/ops/log.ts), which carries only warnings and errors, so splitting it costs little.
  const errors: string[] = [];
  let partialLine = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    const lines = (partialLine + chunk).split('\n');
    partialLine = lines.pop()!;
    for (const line of lines) if (line.includes('"level":"error"')) errors.push(line);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 120 s:\n${output}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (!started && ready(output)) {
        started = true;
        clearTimeout(timer);
        resolve({ child, output: () => output, errorLines: () => errors });
      }
    });
    child.stderr!.on('data', keep);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before it was ready:\n${output}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/** `extraNodeArgs` e.g. ['--cpu-prof', '--cpu-prof-dir=…'] to profile the server. */
export async function startProductionServer(
  extraEnv: EnvOverrides,
  extraNodeArgs: string[] = [],
): Promise<
  BenchProcess & {
    cli: (...args: string[]) => ReturnType<typeof runCli>;
    /** Every line the server logged at level error, from its start on. */
    errorLines: () => string[];
  }
> {
  const port = await freePort();
  // PostgreSQL mode requires an explicit key-hash secret (instances must share it).
  const { dataDir, env } = isolatedEnv({
    PORT: String(port),
    KEY_HASH_SECRET: randomBytes(32).toString('hex'),
    ...extraEnv,
  });
  const { child, output, errorLines } = await spawnUntil(
    [...extraNodeArgs, ...START_NODE_ARGS],
    env,
    (out) => out.includes('ChemFlow is serving'),
    'the server',
  );
  return {
    pid: child.pid!,
    baseUrl: `http://127.0.0.1:${port}`,
    env,
    output,
    errorLines,
    cli: (...args) => runCli(env, args),
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startBareSdkServer(): Promise<BenchProcess> {
  const port = await freePort();
  const { child, output } = await spawnUntil(
    ['--import', 'tsx', join(ROOT, 'tools/bench/bare-mcp-server.ts'), String(port)],
    process.env,
    (out) => out.includes('listening'),
    'the bare SDK server',
  );
  return {
    pid: child.pid!,
    baseUrl: `http://127.0.0.1:${port}`,
    env: process.env,
    output,
    stop: () => stopChild(child),
  };
}
