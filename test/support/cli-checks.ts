/**
 * The operator CLI judged as an operator sees it: exit code, stdout and stderr, never a stack trace.
 * `fails` also checks the kind of refusal: usage errors (exit 2) print the usage, refused operations
 * (exit 1) do not.
 */
import assert from 'node:assert/strict';
import { runCli } from './test-server.ts';

// A Node stack frame ("    at fn (file.ts:1:2)") or a path into the sources: neither belongs in front of an operator.
const INTERNALS = /^\s+at .+|node_modules|\.ts:\d+:\d+/m;
const USAGE = /Usage: npm run --silent cli -- <command>/;

export function cliChecks(env: NodeJS.ProcessEnv) {
  function cli(...args: string[]) {
    const result = runCli(env, args);
    assert.doesNotMatch(result.stderr, INTERNALS, `stack trace in stderr of "${args.join(' ')}":\n${result.stderr}`);
    return result;
  }

  function succeeds(...args: string[]): string {
    const result = cli(...args);
    assert.equal(result.status, 0, `"${args.join(' ')}" failed:\n${result.stderr}`);
    assert.equal(result.stderr, '');
    return result.stdout;
  }

  /** A refusal: the exit code, a message saying what is wrong, nothing on stdout. Returns stderr. */
  function fails(status: 1 | 2, message: RegExp, ...args: string[]): string {
    const result = cli(...args);
    assert.equal(
      result.status,
      status,
      `"${args.join(' ')}" exited ${result.status}:\n${result.stdout}${result.stderr}`,
    );
    assert.match(result.stderr, message);
    assert.equal(result.stdout, '');
    if (status === 2) assert.match(result.stderr, USAGE);
    else assert.doesNotMatch(result.stderr, /Usage:/, 'a refused operation is not a usage error');
    return result.stderr;
  }

  return { cli, succeeds, fails };
}
