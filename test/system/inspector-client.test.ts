/**
 * MCP Inspector, the official debugging client, against /mcp: its CLI (`mcp-inspector --cli`, the pinned
 * devDependency) runs for real from node_modules, as a developer runs it, and must show our key errors.
 *
 * A valid key lists the tools and calls one. After a 401 the Inspector decides by itself what its user
 * sees (its clients/cli/build/index.js, connectInspectorWithOAuth and withCliAuthRecoveryRetry):
 * - without a terminal it refuses to start OAuth and prints only "Interactive OAuth requires a TTY…",
 *   whatever the server said: our message is lost. `--stored-auth-only`, which the Inspector recommends for
 *   scripts and CI, makes it report the 401 instead, body included: missing_api_key, invalid_api_key;
 * - at a terminal it runs the server's OAuth flow instead (the browser tests in
 *   e2e/oauth-desktop-clients.test.ts).
 * docs/mcp-api.md ("Client configurations") tells Inspector users this; this file is what it rests on.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.ts';

/** The Inspector's own binary, from its package.json "bin" (never npx, which could download another version). */
const INSPECTOR_BIN = (() => {
  const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifest), bin['mcp-inspector']);
})();
const RUN_DEADLINE_MS = 30_000;
const UNKNOWN_KEY = 'cf_dddddddddddddddddddddddddddddddddddddd';
/** `tools/call` of service_query_compound with {"compound_name":"ethanol"}. */
const ETHANOL = [
  '--method',
  'tools/call',
  '--tool-name',
  'service_query_compound',
  '--tool-args-json',
  '{"compound_name":"ethanol"}',
];

let server: TestServer;
let home: string;
const running = new Set<ChildProcess>();
before(async () => {
  server = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'mcp-inspector-'));
});
after(async () => {
  for (const child of running) child.kill('SIGKILL');
  await server?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `mcp-inspector --cli <server>/mcp --transport http <args>` with no terminal (stdin closed, output
 * piped), a fresh HOME and secrets kept in memory, so nothing of the developer's Inspector state is used.
 */
async function inspector(args: string[], env: Record<string, string> = {}): Promise<InspectorRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(childEnv)) if (name.startsWith('MCP_')) delete childEnv[name];
  Object.assign(childEnv, { HOME: home, MCP_INSPECTOR_SECRET_STORE: 'memory', NO_COLOR: '1' }, env);
  const child = spawn(
    process.execPath,
    [INSPECTOR_BIN, '--cli', server.mcpUrl, '--transport', 'http', '--format', 'json', ...args],
    { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  try {
    return await new Promise<InspectorRun>((done, fail) => {
      const deadline = setTimeout(() => {
        child.kill('SIGKILL');
        fail(
          new Error(`mcp-inspector ${args.join(' ')} did not finish in ${RUN_DEADLINE_MS} ms:\n${stdout}\n${stderr}`),
        );
      }, RUN_DEADLINE_MS);
      child.once('error', (error) => {
        clearTimeout(deadline);
        fail(error);
      });
      child.once('close', (code) => {
        clearTimeout(deadline);
        done({ code, stdout, stderr });
      });
    });
  } finally {
    running.delete(child);
  }
}

/** The error the CLI prints last on stderr, `{"error":{"code","message",…}}`, after any notices. */
function errorEnvelope(run: InspectorRun): { code: string; message: string } {
  const line = run.stderr
    .trim()
    .split('\n')
    .findLast((l) => l.startsWith('{"error"'));
  assert.ok(line, `an error envelope on stderr (exit ${run.code}):\n${run.stderr}\n${run.stdout}`);
  return (JSON.parse(line) as { error: { code: string; message: string } }).error;
}

/** What /mcp itself answers to the call the Inspector makes, without or with a key. */
async function serverRefusal(key?: string): Promise<string> {
  const response = await fetch(server.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'service_query_compound', arguments: { compound_name: 'ethanol' } },
    }),
  });
  assert.equal(response.status, 401);
  return response.text();
}

describe('MCP Inspector CLI with a valid key', () => {
  it('lists the tools and calls service_query_compound', async () => {
    const header = ['--header', `Authorization: Bearer ${server.demoKey}`];
    const list = await inspector(['--method', 'tools/list', ...header]);
    assert.equal(list.code, 0, list.stderr);
    const { tools } = (JSON.parse(list.stdout) as { result: { tools: { name: string }[] } }).result;
    assert.ok(
      tools.some((tool) => tool.name === 'service_query_compound'),
      tools.map((t) => t.name).join(),
    );

    const call = await inspector([...ETHANOL, ...header, '--stored-auth-only']); // docs/mcp-api.md's command
    assert.equal(call.code, 0, call.stderr);
    const { result } = JSON.parse(call.stdout) as {
      result: { isError?: boolean; structuredContent: { name: string; cas: string } };
    };
    assert.equal(result.isError, false);
    assert.equal(result.structuredContent.name, 'ethanol');
    assert.equal(result.structuredContent.cas, '64-17-5');
  });
});

describe('MCP Inspector CLI in a script (no terminal) shows our key errors with --stored-auth-only', () => {
  it("no key: missing_api_key, the server's body word for word", async () => {
    const run = await inspector([...ETHANOL, '--stored-auth-only']);
    assert.equal(run.code, 3, 'the exit code for auth_required');
    const error = errorEnvelope(run);
    assert.equal(error.code, 'auth_required');
    const body = await serverRefusal();
    assert.match(body, /^\{"error":"missing_api_key","message":".*API key/);
    assert.ok(error.message.includes(body), `${error.message} should contain ${body}`);
  });

  it("an unknown key: invalid_api_key, the server's body word for word", async () => {
    const run = await inspector([...ETHANOL, '--stored-auth-only', '--header', `Authorization: Bearer ${UNKNOWN_KEY}`]);
    assert.equal(run.code, 3);
    const error = errorEnvelope(run);
    const body = await serverRefusal(UNKNOWN_KEY);
    assert.match(body, /^\{"error":"invalid_api_key","message":"API key not recognised/);
    assert.ok(error.message.includes(body), `${error.message} should contain ${body}`);
  });

  it('without --stored-auth-only the Inspector hides them behind its TTY message (why the docs name the flag)', async () => {
    const run = await inspector([...ETHANOL, '--header', `Authorization: Bearer ${UNKNOWN_KEY}`]);
    assert.equal(run.code, 3);
    const error = errorEnvelope(run);
    assert.match(error.message, /^Interactive OAuth requires a TTY/);
    assert.doesNotMatch(error.message, /invalid_api_key/);
  });
});
