/**
 * Test harness: starts the real production server (`npm start`'s command, read from package.json) on a free
 * port with a fresh SQLite database in a temporary folder (or the database DATABASE_URL names), and runs
 * the operator CLI against the same database (in this process: cli-in-process.ts). A server can be restarted on its predecessor's data.
 * Nothing is mocked: tests talk HTTP to the server a user would run.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { KeyReport } from '../../lib/usage/key-report.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { runCliInProcess } from './cli-in-process.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The node arguments of package.json's "start" script (`node <args>`), so tests and the benchmark run
 * the server exactly as `npm start` does, heap limit included; they are run with ROOT as the cwd.
 */
export const START_NODE_ARGS: readonly string[] = (() => {
  const [command, ...args] = packageJson.scripts.start.trim().split(/\s+/);
  if (command !== 'node')
    throw new Error(
      `package.json's start script must be "node …" for the test harness, got: ${packageJson.scripts.start}`,
    );
  return args;
})();

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** What `key create --json` and `key reissue --json` print (lib/cli/main.ts); a reissue names the key it replaces. */
export interface CliIssuedKey {
  id: string;
  key: string;
  start: string;
  tier: string;
  dailyQuota: number;
  rps: number;
  expiresAt: string | null;
  replaces?: string;
  /** A reissue with --grace: when the old secret stops (ISO); null when it stopped at once. */
  oldWorksUntil?: string | null;
}

export interface TestServer {
  baseUrl: string;
  mcpUrl: string;
  /** The demo key printed at first start (a restarted server keeps its predecessor's). */
  demoKey: string;
  adminEmail: string;
  /**
   * The admin's password: the one-time password printed at first start, which the operator CLI sets again
   * (`user password`) the first time a test reads it, so that the admin may act without first choosing a
   * new one in the portal. Undefined after a restart.
   */
  readonly adminPassword?: string;
  /** The one-time password exactly as printed, left as the portal first finds it: it must be replaced. */
  oneTimeAdminPassword?: string;
  /** The temporary folder with the SQLite file and the key-hash secret. */
  dataDir: string;
  /** The server process's id (its memory can be read from /proc/<pid>/status). */
  pid: number;
  env: NodeJS.ProcessEnv;
  output: () => string;
  /** Runs the operator CLI against this server's database. */
  cli: (...args: string[]) => { status: number | null; stdout: string; stderr: string };
  /** Runs the CLI and asserts that it succeeded; its stdout. */
  cliOk: (...args: string[]) => string;
  /** Runs a key command with --json and asserts that it succeeded; its parsed output. */
  cliJson(command: 'key', action: 'show', ...args: string[]): KeyReport;
  cliJson(command: 'key', action: 'create' | 'reissue', ...args: string[]): CliIssuedKey;
  /**
   * Sends the server's process (`npm start` runs as one: launch.mjs imports the server) a signal and
   * resolves once it has exited, with its exit code or the signal that ended it (SIGKILL: a crash).
   * The data folder stays, for a restart on it.
   */
  kill: (signal: NodeJS.Signals) => Promise<ServerExit>;
  /** Stops the server with SIGTERM and resolves to its exit code; removes the data folder unless keepData. */
  stop: (options?: { keepData?: boolean }) => Promise<number | null>;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartOptions {
  /** Start on the data of this server, stopped with keepData or killed: a restart of the same installation. */
  restartOf?: TestServer;
}

/** A fresh data folder and the environment pointing server and CLI at it. */
export type EnvOverrides = Record<string, string | undefined>;

export function isolatedEnv(extra: EnvOverrides = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'chemflow-test-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `file:${join(dataDir, 'test.db')}`,
    KEY_HASH_SECRET_FILE: join(dataDir, 'key-hash-secret'),
    AUTH_SECRET_FILE: join(dataDir, 'auth-secret'),
    ADMIN_EMAIL: 'admin@example.test',
    NEXT_TELEMETRY_DISABLED: '1',
    ...extra,
  };
  return { dataDir, env };
}

/** Runs an operator CLI command against `env`'s database, in this process (cli-in-process.ts). */
export function runCli(
  env: NodeJS.ProcessEnv,
  args: string[],
): { status: number | null; stdout: string; stderr: string } {
  return runCliInProcess(env, args);
}

/** Runs the CLI as an operator does, `npm run --silent cli -- …`: a process of its own. */
export function runCliBinary(env: NodeJS.ProcessEnv, args: string[]) {
  const result = spawnSync('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: ROOT, env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function cliSucceeded(env: NodeJS.ProcessEnv, args: string[]): string {
  const result = runCli(env, args);
  assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

export async function startTestServer(extraEnv: EnvOverrides = {}, options: StartOptions = {}): Promise<TestServer> {
  const port = await freePort();
  const previous = options.restartOf;
  const { dataDir, env } = previous
    ? { dataDir: previous.dataDir, env: { ...previous.env, PORT: String(port), ...extraEnv } }
    : isolatedEnv({ PORT: String(port), ...extraEnv });
  const child: ChildProcess = spawn(process.execPath, [...START_NODE_ARGS], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<ServerExit>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));

  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start within 120 s:\n${output}`)), 120_000);
    const check = () => {
      if (output.includes('ChemFlow is serving')) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before it was ready:\n${output}`));
    });
  });
  const demoKey = /Demo key \(free\):\s+(cf_\w+)/.exec(output)?.[1] ?? previous?.demoKey;
  if (!demoKey) throw new Error(`no demo key in the start output:\n${output}`);
  const oneTimeAdminPassword = /One-time password:\s+(\S+)/.exec(output)?.[1];
  const adminEmail = 'admin@example.test';
  let adminPasswordSet = false;
  const scheme = env.TLS_CERT_FILE ? 'https' : 'http';
  const baseUrl = `${scheme}://localhost:${port}`;

  return {
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    demoKey,
    adminEmail,
    oneTimeAdminPassword,
    get adminPassword() {
      if (oneTimeAdminPassword && !adminPasswordSet) {
        // The = form: a value starting with "-" is otherwise read as an option.
        cliSucceeded(env, ['user', 'password', '--email', adminEmail, `--password=${oneTimeAdminPassword}`]);
        adminPasswordSet = true;
      }
      return oneTimeAdminPassword;
    },
    dataDir,
    pid: child.pid!,
    env,
    output: () => output,
    cli: (...args) => runCli(env, args),
    cliOk: (...args) => cliSucceeded(env, args),
    cliJson: (...args) => JSON.parse(cliSucceeded(env, [...args, '--json'])),
    kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}
