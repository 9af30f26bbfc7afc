/**
 * Secrets never reach the logs, an error answer, a Location header or a URL. One full run against the
 * real production server with LOG_LEVEL=debug issues secrets every way there is (the first-start demo
 * key and admin password, the CLI's key create and reissue, a password set on the CLI, a portal sign-up
 * and a key created in the portal through a browser, the metrics token), uses them right and wrong on
 * /mcp (valid, rate-limited, disabled, replaced, conflicting headers, one character changed, truncated,
 * in the query string, in a malformed or oversized body), reports one as leaked, signs in with right and
 * wrong passwords, searches for secrets in the support console, and then looks for every secret, and
 * every 12-character piece of it, in all of the server's output, the CLI's stderr, every error answer's
 * body, every Location header and every URL the browser was sent to. The first-start banner prints the
 * demo key and the admin's password once, by design (docs/portal.md "The first admin"); that is the only
 * place they may appear.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from '@playwright/test';
import { launchBrowser, signIn, signUp } from '../support/browser.ts';
import { MCP_HEADERS, toolCall } from '../support/mcp-client.ts';
import { startTestServer } from '../support/test-server.ts';

const DESKTOP = { width: 1280, height: 900 };

/** The string with one character changed to another letter or digit: what a typo makes of a secret. */
function oneCharChanged(secret: string, at = secret.length - 10): string {
  return secret.slice(0, at) + (secret[at] === 'A' ? 'B' : 'A') + secret.slice(at + 1);
}

/** Pieces of a secret that would give most of it away: the whole, without its cf_ prefix, and every 12 characters in a row. */
function fragments(secret: string): string[] {
  const body = secret.replace(/^cf_/, '');
  const pieces = new Set([secret, body]);
  for (let i = 0; i + 12 <= body.length; i++) pieces.add(body.slice(i, i + 12));
  return [...pieces];
}

interface Seen {
  where: string;
  text: string;
}

test('a full run with LOG_LEVEL=debug: no issued secret or password in any log line, CLI error, error answer, Location header or URL', {
  timeout: 600_000,
}, async (t) => {
  const metricsToken = randomBytes(24).toString('hex');
  const server = await startTestServer({ LOG_LEVEL: 'debug', METRICS_TOKEN: metricsToken, MCP_MAX_BODY_BYTES: '4096' });
  t.after(() => server.stop());
  const { baseUrl, mcpUrl } = server;

  /** Every secret by what it is; all are searched for at the end. */
  const secrets = new Map<string, string>([
    ['demo key', server.demoKey],
    ['admin one-time password', server.adminPassword!],
    ['metrics token', metricsToken],
  ]);
  /** Everything that must hold no secret: CLI stderr, error answers, Location headers, URLs. */
  const seen: Seen[] = [];

  /** The CLI's stderr never holds a secret; its stdout does only where it hands one out (--json of key create and reissue). */
  const cli = (...args: string[]) => {
    const run = server.cli(...args);
    seen.push({ where: `stderr of cli ${args[0]} ${args[1]}`, text: run.stderr });
    if (!args.includes('--json')) seen.push({ where: `stdout of cli ${args[0]} ${args[1]}`, text: run.stdout });
    return run;
  };
  const issued = (what: string, run: ReturnType<typeof cli>) => {
    assert.equal(run.status, 0, run.stderr);
    const { key, id } = JSON.parse(run.stdout);
    secrets.set(what, key);
    return { secret: key as string, id: id as string };
  };
  /** One HTTP exchange; every answer's Location header and every error answer's body are kept for the check. */
  const http = async (what: string, url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { redirect: 'manual', ...init });
    const body = await response.text();
    const location = response.headers.get('location');
    if (location) seen.push({ where: `Location of ${what}`, text: location });
    if (response.status >= 400) seen.push({ where: `${response.status} answer to ${what}`, text: body });
    return { status: response.status, body };
  };
  const mcp = (
    what: string,
    headers: Record<string, string>,
    body: unknown = toolCall('service_query_compound', { compound_name: 'ethanol' }),
    url = mcpUrl,
  ) =>
    http(`/mcp: ${what}`, url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  // The operator CLI: a developer with a password, keys created, reissued and disabled by secret.
  const devPassword = `dev-${randomBytes(12).toString('base64url')}`;
  secrets.set('developer password (CLI)', devPassword);
  assert.equal(cli('user', 'create', '--email', 'dev@example.test', '--password', devPassword).status, 0);
  const first = issued(
    'CLI key',
    cli('key', 'create', '--owner', 'dev@example.test', '--name', 'cli', '--rps', '1000', '--json'),
  );
  const slow = issued(
    'CLI key, 1 call a second',
    cli('key', 'create', '--owner', 'dev@example.test', '--name', 'slow', '--rps', '1', '--json'),
  );
  const doomed = issued(
    'CLI key, disabled',
    cli('key', 'create', '--owner', 'dev@example.test', '--name', 'doomed', '--json'),
  );
  const reissued = issued('CLI reissued key', cli('key', 'reissue', first.id, '--json'));
  const disabled = cli('key', 'disable', doomed.secret, '--reason', 'found in a test log');
  assert.equal(disabled.status, 0, disabled.stderr);
  for (const reference of [oneCharChanged(reissued.secret), reissued.secret.slice(0, -2), `${reissued.secret}x`]) {
    const show = cli('key', 'show', reference);
    assert.equal(show.status, 1, 'a near-secret matches no key');
  }

  // /mcp, right and wrong.
  assert.equal((await mcp('the demo key', { authorization: `Bearer ${server.demoKey}` })).status, 200);
  assert.equal((await mcp('X-API-Key', { 'x-api-key': reissued.secret })).status, 200);
  assert.equal((await mcp('lower-case bearer', { authorization: `bearer ${reissued.secret}` })).status, 200);
  assert.equal(
    (
      await mcp(
        'a secret as a tool argument',
        { 'x-api-key': reissued.secret },
        toolCall('service_query_compound', { compound_name: slow.secret }),
      )
    ).status,
    200,
  );
  const burst = await Promise.all(
    [1, 2, 3, 4].map(() => mcp('rate-limited', { authorization: `Bearer ${slow.secret}` })),
  );
  assert.ok(
    burst.some((a) => a.status === 429),
    `a burst on a 1/s key is limited: ${burst.map((a) => a.status)}`,
  );
  assert.equal((await mcp('a replaced key', { authorization: `Bearer ${first.secret}` })).status, 401);
  assert.equal((await mcp('a disabled key', { authorization: `Bearer ${doomed.secret}` })).status, 401);
  assert.equal(
    (await mcp('conflicting headers', { authorization: `Bearer ${reissued.secret}`, 'x-api-key': server.demoKey }))
      .status,
    400,
  );
  for (const [what, value] of [
    ['one character changed', `Bearer ${oneCharChanged(reissued.secret)}`],
    ['truncated', `Bearer ${reissued.secret.slice(0, -1)}`],
    ['one character too many', `Bearer ${reissued.secret}0`],
    ['two keys', `Bearer ${reissued.secret} ${server.demoKey}`],
    ['Basic scheme', `Basic ${Buffer.from(`user:${reissued.secret}`).toString('base64')}`],
    ['Token scheme', `Token ${reissued.secret}`],
    ['quoted', `Bearer "${reissued.secret}"`],
  ]) {
    assert.equal((await mcp(what, { authorization: value })).status, 401, what);
  }
  assert.equal(
    (await mcp('key in the query string', {}, undefined, `${mcpUrl}?api_key=${reissued.secret}&key=${server.demoKey}`))
      .status,
    401,
  );
  assert.equal((await http('GET /mcp with a key in the query', `${mcpUrl}?api_key=${reissued.secret}`)).status, 405);
  assert.equal(
    (
      await mcp(
        'broken JSON holding a secret',
        { authorization: `Bearer ${reissued.secret}` },
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${reissued.secret}"`,
      )
    ).status,
    400,
  );
  assert.equal(
    (
      await mcp(
        'an unknown method named like a secret',
        { authorization: `Bearer ${reissued.secret}` },
        { jsonrpc: '2.0', id: 2, method: reissued.secret },
      )
    ).status,
    200,
  );
  assert.equal(
    (
      await mcp(
        'an oversized body full of secrets',
        { authorization: `Bearer ${reissued.secret}` },
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: reissued.secret.repeat(200) } }),
      )
    ).status,
    413,
  );

  // The public leak report, right and wrong.
  const report = (what: string, body: string, type = 'application/json') =>
    http(`leak report: ${what}`, `${baseUrl}/api/keys/report-leak`, {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    });
  assert.equal((await report('plain text', `leaked: ${slow.secret}`, 'text/plain')).status, 415);
  assert.equal((await report('broken JSON', `{"secrets": ["${slow.secret}"`)).status, 400);
  assert.equal((await report('a secret as a field name', JSON.stringify({ [slow.secret]: true }))).status, 400);
  assert.equal(
    (await report('a secret as the source', JSON.stringify({ secrets: [slow.secret], source: 7 }))).status,
    400,
  );
  assert.equal((await report('GitHub shape, bad item', JSON.stringify([{ token: slow.secret, url: 5 }]))).status, 400);
  assert.equal(
    (
      await report(
        'the slow key',
        JSON.stringify({ secrets: [slow.secret, oneCharChanged(slow.secret)], source: 'https://paste.example/abc' }),
      )
    ).status,
    202,
  );
  assert.equal((await mcp('a key reported as leaked', { authorization: `Bearer ${slow.secret}` })).status, 401);

  // Health and metrics, with the right, a wrong and no token.
  assert.equal((await http('health', `${baseUrl}/api/health`)).status, 200);
  assert.equal((await http('metrics without a token', `${baseUrl}/api/metrics`)).status, 401);
  assert.equal(
    (
      await http('metrics with a near token', `${baseUrl}/api/metrics`, {
        headers: { authorization: `Bearer ${oneCharChanged(metricsToken)}` },
      })
    ).status,
    401,
  );
  assert.equal(
    (
      await http('metrics with the token', `${baseUrl}/api/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      })
    ).status,
    200,
  );

  // The portal in a browser: sign-up, wrong and right sign-ins, a key created in the portal, searches for secrets.
  const browser = await launchBrowser();
  t.after(() => browser.close());
  /** Addresses the test itself typed, secrets included on purpose; every other URL came from the server. */
  const typed = new Set<string>();
  const visit = (page: Page, url: string) => {
    typed.add(url);
    return page.goto(url);
  };
  const watch = async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    context.on('request', (request) => {
      if (!typed.has(request.url())) seen.push({ where: 'a URL the browser requested', text: request.url() });
    });
    context.on('response', (response) => {
      const location = response.headers().location;
      if (location) seen.push({ where: `Location of ${response.url()}`, text: location });
    });
    return context.newPage();
  };
  const dev = await watch();
  const portalPassword = `portal-${randomBytes(12).toString('base64url')}`;
  secrets.set('developer password (portal sign-up)', portalPassword);
  await signUp(dev, baseUrl, 'portal-dev@example.test', portalPassword);
  await dev.getByRole('button', { name: 'Create your first key' }).click();
  const form = dev.getByRole('dialog', { name: 'Create a key' });
  await form.getByLabel('Name').fill('browser agent');
  await form.getByRole('button', { name: 'Create key' }).click();
  const reveal = dev.getByRole('dialog', { name: 'Key "browser agent" created' });
  const portalKey = await reveal.getByLabel(/Your new API key/).inputValue();
  secrets.set('portal key', portalKey);
  await reveal.getByRole('button', { name: 'I have stored it' }).click();
  assert.equal((await mcp('the portal key', { authorization: `Bearer ${portalKey}` })).status, 200);
  await visit(dev, `${baseUrl}/keys/${portalKey}`);

  const stranger = await watch();
  await visit(stranger, `${baseUrl}/keys/${portalKey}`);
  await stranger.goto(`${baseUrl}/signin`);
  await stranger.getByLabel('Email').fill('portal-dev@example.test');
  await stranger.getByLabel('Password').fill(oneCharChanged(portalPassword, 8));
  await stranger.getByRole('button', { name: 'Sign in' }).click();
  await stranger.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
  await stranger.getByLabel('Password').fill(`${devPassword}`);
  await stranger.getByLabel('Email').fill('dev@example.test');
  await stranger.getByRole('button', { name: 'Sign in' }).click();
  await stranger.waitForURL(`${baseUrl}/keys`);

  const admin = await watch();
  await signIn(admin, baseUrl, server.adminEmail, server.adminPassword!, '/support');
  for (const query of [portalKey, oneCharChanged(portalKey), portalKey.slice(0, -3), `Bearer ${portalKey}`]) {
    await admin.goto(`${baseUrl}/support`);
    await admin.getByLabel(/^Find a key/).fill(query);
    await admin.getByRole('button', { name: 'Search' }).click();
    if (query === portalKey) await admin.waitForURL(/\/support\?match=/);
    // Scoped to the page's content: Next's route announcer is an alert too, outside <main>.
    else await admin.locator('main').getByRole('alert').waitFor();
  }
  await visit(admin, `${baseUrl}/support?q=${portalKey}`);
  await visit(admin, `${baseUrl}/support/keys/${portalKey}`);
  await visit(admin, `${baseUrl}/support/audit?key=${portalKey}`);

  // The check: each secret, and each 12-character piece of it, appears nowhere it should not.
  const output = server.output();
  const banner =
    /^First start: an admin account and a demo key were created\. They are shown only now\.\n(?: {2}.*\n){3}/m.exec(
      output,
    );
  assert.ok(banner, `the first-start banner is in the output:\n${output.slice(0, 2000)}`);
  assert.ok(
    banner[0].includes(server.demoKey) && banner[0].includes(server.adminPassword!),
    'the banner shows the demo key and the admin password',
  );
  const logs = output.slice(0, banner.index) + output.slice(banner.index + banner[0].length);
  assert.match(logs, /"level":"debug"|"level":"info"/, 'the server wrote log lines during the run');
  const places: Seen[] = [{ where: 'the server output (stdout and stderr, banner aside)', text: logs }, ...seen];
  t.diagnostic(
    `${secrets.size} secrets checked against ${places.length} places (${logs.length} characters of server output)`,
  );
  const leaks: string[] = [];
  for (const [what, secret] of secrets) {
    for (const { where, text } of places) {
      const piece = fragments(secret).find((f) => text.includes(f));
      if (piece)
        leaks.push(
          `the ${what} (${piece === secret ? 'whole' : `piece "${piece}"`}) is in ${where}: …${text.slice(Math.max(0, text.indexOf(piece) - 120), text.indexOf(piece) + piece.length + 40)}…`,
        );
    }
  }
  assert.deepEqual(leaks, [], 'no secret anywhere it should not be');
});
