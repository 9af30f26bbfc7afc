/**
 * The two desktop MCP clients pinned in package.json sign in to /mcp with OAuth against the production
 * server, unchanged and without any key configured, as their users run them:
 *  - mcp-remote, the stdio bridge desktop apps launch, driven over stdio with newline-delimited JSON-RPC;
 *  - the MCP Inspector's CLI, run in a terminal (a pseudo-terminal from util-linux `script`: without one
 *    it refuses to start an interactive sign-in).
 * Each prints its authorization URL and opens no browser of its own; a real browser, signed in to the
 * portal, opens the URL and clicks Allow, and is sent back to the client's own loopback callback. The
 * client's first tools/call then succeeds, and shows on the new key "<client name> (connector)". Neither
 * the client's output nor the server's log shows the access or refresh token.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, type TestContext, test } from 'node:test';
import type { Page } from '@playwright/test';
import { signUp } from '../test/support/browser.ts';
import {
  allowInBrowser,
  connectorKeyShowsCall,
  secretsIn,
  secretsStoredUnder,
  watchOutput,
} from '../test/support/oauth-client.ts';
import { type ServerAndBrowser, startServerAndBrowser } from '../test/support/server-and-browser.ts';
import { freePort } from '../test/support/test-server.ts';

const TOOL = 'service_query_compound';
const ARGUMENTS = { compound_name: 'ethanol' };
const resolveBin = (specifier: string) => createRequire(import.meta.url).resolve(specifier);

let s: ServerAndBrowser;
let page: Page;
before(async () => {
  s = await startServerAndBrowser();
  page = await (await s.browser.newContext()).newPage();
  await signUp(page, s.server.baseUrl, 'desktop-owner@example.test');
});
after(() => s?.close());

/** A fresh home folder for one client run: its token store lives there. */
const freshHome = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** When the test ends: ends the client if it still runs, waits for it to be gone, then removes its home. */
function cleanUpAfter(t: TestContext, child: ChildProcess, home: string) {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
    rmSync(home, { recursive: true, force: true });
  });
}

/** The page's URL starts with the client's callback: the browser was sent back to the client. */
const backAt = (callbackUrl: string) => (url: URL) => url.href.startsWith(`${callbackUrl}?`);

/** What the server logs from now on. */
function serverOutputFromNow(): () => string {
  const start = s.server.output().length;
  return () => s.server.output().slice(start);
}

/** Fails if the text shows any of the secrets, or (for the server's log) any key secret or refresh token. */
function assertShowsNoSecret(text: string, where: string, secrets: string[] = secretsIn(text)) {
  const shown = secrets.filter((secret) => text.includes(secret));
  assert.deepEqual(shown, [], `${where} shows a secret`);
}

/** The client's token store holds the access token (a key secret) and the refresh token. */
function assertHoldsTokens(stored: string[], client: string) {
  assert.ok(
    stored.some((secret) => secret.startsWith('cf_')),
    `${client} stored its access token`,
  );
  assert.ok(
    stored.some((secret) => secret.startsWith('cfr_')),
    `${client} stored its refresh token`,
  );
}

/** mcp-remote as a desktop app launches it (stdio), with a fresh home; `args` after the URL and port. */
async function startMcpRemote(t: TestContext, args: string[] = []) {
  const proxy = resolveBin('mcp-remote/dist/proxy.js');
  const port = await freePort();
  const home = freshHome('mcp-remote-home-');
  // <url> <callback port>: mcp-remote registers http://localhost:<port>/oauth/callback and listens there.
  // No display and BROWSER=true: the opener it runs does nothing, so the test's browser is the only one.
  const child = spawn(process.execPath, [proxy, s.server.mcpUrl, String(port), '--allow-http', ...args], {
    env: { ...process.env, HOME: home, BROWSER: 'true', DISPLAY: '', WAYLAND_DISPLAY: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanUpAfter(t, child, home);
  const stderr = watchOutput(child.stderr);
  const stdout = watchOutput(child.stdout);
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const answer = async (id: number) => {
    const [, line] = await stdout.waitFor(new RegExp(`^(\\{"jsonrpc":"2\\.0","id":${id},.*)\\n`, 'm'), `answer ${id}`);
    return JSON.parse(line) as { result?: { isError?: boolean; content?: { text: string }[] }; error?: unknown };
  };
  return { port, home, stderr, stdout, send, answer };
}

test('mcp-remote over stdio: the first tools/call waits for the browser to allow, then succeeds', async (t) => {
  const serverLog = serverOutputFromNow();
  const { port, home, stderr, stdout, send, answer } = await startMcpRemote(t);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'desktop-app', version: '1' } },
  });
  assert.ok((await answer(1)).result, 'initialize needs no credentials and is answered');
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: TOOL, arguments: ARGUMENTS } });

  // The call's 401 makes mcp-remote print the URL and only then start its callback listener.
  const [, authorizationUrl] = await stderr.waitFor(
    /Please authorize this client by visiting:\n(\S+)/,
    'authorization URL on stderr',
  );
  assert.equal(
    new URL(authorizationUrl).searchParams.get('redirect_uri'),
    `http://localhost:${port}/oauth/callback`,
    'mcp-remote asks for its code at its own loopback callback',
  );
  await stderr.waitFor(
    new RegExp(`OAuth callback server running at http://127\\.0\\.0\\.1:${port}`),
    'callback listener',
  );
  await allowInBrowser(page, authorizationUrl);
  await page.waitForURL(backAt(`http://localhost:${port}/oauth/callback`));
  await page.getByText('Authorization successful!').waitFor();

  // The same call, held while the user allowed, is sent again with the token: no retry by the app.
  const call = await answer(2);
  assert.ok(call.result, `the first tools/call has a result: ${JSON.stringify(call).slice(0, 500)}`);
  assert.notEqual(call.result.isError, true, `the call succeeded: ${JSON.stringify(call.result).slice(0, 500)}`);
  assert.match(call.result.content?.[0]?.text ?? '', /"formula":"C2H6O"/, 'the answer is about ethanol');

  await connectorKeyShowsCall(page, s.server.baseUrl, 'MCP CLI Proxy', TOOL);
  const stored = secretsStoredUnder(home);
  assertHoldsTokens(stored, 'mcp-remote');
  assertShowsNoSecret(stderr.text() + stdout.text(), "mcp-remote's output", stored);
  assertShowsNoSecret(serverLog(), "the server's log");
});

/** Quotes an argument for the shell `script -c` runs the command with. */
const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

test('the Inspector CLI in a terminal: tools/call signs in through the browser, then prints the result', async (t) => {
  const found = spawnSync('script', ['--version']);
  assert.equal(found.error, undefined, 'util-linux `script` gives the Inspector CLI its terminal');
  const serverLog = serverOutputFromNow();
  const inspector = resolveBin('@modelcontextprotocol/inspector/clients/launcher/build/index.js');
  const callbackUrl = `http://127.0.0.1:${await freePort()}/oauth/callback`;
  const home = freshHome('inspector-home-');
  const resultFile = join(home, 'result.json');
  const command = [
    process.execPath,
    inspector,
    '--cli',
    s.server.mcpUrl,
    '--transport',
    'http',
    '--method',
    'tools/call',
    '--tool-name',
    TOOL,
    '--tool-arg',
    `compound_name=${ARGUMENTS.compound_name}`,
    '--callback-url',
    callbackUrl,
    '--output',
    resultFile,
  ];
  // -e: `script` exits with the CLI's status. MCP_AUTO_OPEN_ENABLED=false: the CLI prints the URL and
  // opens nothing. The file secret store keeps its tokens in the fresh home (no OS keychain here).
  const child = spawn('script', ['-qfec', command.map(shellQuote).join(' '), '/dev/null'], {
    env: {
      ...process.env,
      HOME: home,
      MCP_AUTO_OPEN_ENABLED: 'false',
      MCP_INSPECTOR_SECRET_STORE: 'file',
      NO_COLOR: '1',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanUpAfter(t, child, home);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const terminal = watchOutput(child.stdout, child.stderr);

  // NO_COLOR keeps the URL plain; a terminal with colours would wrap it in an OSC 8 hyperlink, skipped by \S*?.
  const [, authorizationUrl] = await terminal.waitFor(
    /Please navigate to: \S*?(https?:\/\/[\w.~:/?#[\]@!$&'()*+,;=%-]+)/,
    'authorization URL in the terminal',
  );
  assert.equal(
    new URL(authorizationUrl).searchParams.get('redirect_uri'),
    callbackUrl,
    'the CLI asks for its code at the --callback-url it listens on',
  );
  await allowInBrowser(page, authorizationUrl);
  await page.waitForURL(backAt(callbackUrl));
  await page.getByText('OAuth complete. You can close this window.').waitFor();

  assert.equal(await exited, 0, `the CLI succeeded; it printed:\n${terminal.text()}`);
  assert.match(terminal.text(), /Authorization complete\. Retrying/, 'the CLI retried the call after signing in');
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { isError?: boolean; content: { text: string }[] };
  assert.notEqual(result.isError, true, `the call succeeded: ${JSON.stringify(result).slice(0, 500)}`);
  assert.match(result.content[0]?.text ?? '', /"formula":"C2H6O"/, 'the answer is about ethanol');

  await connectorKeyShowsCall(page, s.server.baseUrl, 'MCP Inspector', TOOL);
  const stored = secretsStoredUnder(home);
  assertHoldsTokens(stored, 'the Inspector CLI');
  assertShowsNoSecret(terminal.text(), "the CLI's terminal", stored);
  assertShowsNoSecret(serverLog(), "the server's log");
});

test('mcp-remote with a key header calls at once and never starts a sign-in', async (t) => {
  const { stderr, send, answer } = await startMcpRemote(t, ['--header', `Authorization: Bearer ${s.server.demoKey}`]);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'desktop-app', version: '1' } },
  });
  assert.ok((await answer(1)).result, 'initialize answered');
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: TOOL, arguments: ARGUMENTS } });
  const call = await answer(2);
  assert.notEqual(call.result?.isError, true, `the call succeeded: ${JSON.stringify(call).slice(0, 500)}`);
  assert.match(call.result?.content?.[0]?.text ?? '', /"formula":"C2H6O"/, 'the answer is about ethanol');
  assert.doesNotMatch(stderr.text(), /Please authorize/, 'no sign-in was started');
});
